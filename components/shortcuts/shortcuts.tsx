"use client";

import { useEffect } from "react";
import { toggleDebug, toggleSidebar } from "@/components/playground/use-layout";
import { requestFork } from "@/components/transcripts/fork-menu";
import { newConversation } from "@/components/transcripts/navigation";
import { turnOf } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";
import { isWhole, loadOlder } from "@/state/transcript-pages";
import { focusKind } from "./focus-kind";
import { actionFor, type ShortcutAction, stepId } from "./keymap";
import { toggleReplay } from "./replay-target";

/** The page's keyboard shortcuts (`?` lists them). Renders nothing. */
export function Shortcuts() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = actionFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        repeat: event.repeat,
        focus: focusKind(event.target),
      });
      if (action !== null && run(action)) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return null;
}

/** Does the action; false when it had nothing to act on (the key then does what it would). */
function run(action: ShortcutAction): boolean {
  const state = usePlayground.getState();
  const busy = state.status === "running" || state.status === "stopping";
  switch (action.kind) {
    case "help":
      state.setUi({ helpOpen: true });
      return true;
    case "focus-composer":
      document.getElementById("composer")?.focus();
      return true;
    case "play-pause":
      return toggleReplay();
    case "step-event":
      return stepEvent(action.step);
    case "toggle-debug":
      toggleDebug();
      return true;
    case "toggle-sidebar":
      toggleSidebar();
      return true;
    case "debug-tab":
      state.setUi({ debugTab: action.tab });
      return true;
    case "new-conversation":
      if (busy) return false;
      newConversation();
      document.getElementById("composer")?.focus();
      return true;
    case "fork":
      if (busy || state.transcript === null) return false;
      requestFork(null);
      return true;
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled shortcut ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Selects the next or previous top-level card, brings it into view and focuses it. */
function stepEvent(step: 1 | -1): boolean {
  const state = usePlayground.getState();
  const { log } = state;
  const ids: string[] = [];
  for (const event of log.events) {
    if (event.parent !== undefined) continue;
    if (event.type === "result" && log.callOf(event.callId) !== undefined) continue;
    ids.push(event.id);
  }
  // K on the first card of a transcript opened from its tail: read the page before it, then step.
  if (step === -1 && ids.length > 0 && state.selectedId === ids[0] && !isWhole(state.transcript)) {
    const { transcript } = state;
    // Only when older records came (a refusal or failure leaves the transcript as it was).
    void loadOlder().then(() => {
      if (usePlayground.getState().transcript !== transcript) stepEvent(-1);
    });
    return true;
  }
  const id = stepId(ids, state.selectedId, step);
  if (id === null) return false;
  const event = log.get(id);
  state.select(id, event === undefined ? null : (turnOf(event) ?? null));
  // After the next render, when the card is there. If the focus moved on meanwhile (the next
  // key opened a dialog), it stays where it went.
  const focused = document.activeElement;
  requestAnimationFrame(() => {
    const card = document.querySelector<HTMLElement>(
      `[data-testid=timeline] [data-event-id="${CSS.escape(id)}"]`,
    );
    card?.scrollIntoView({ block: "nearest" });
    if (document.activeElement === focused) card?.focus({ preventScroll: true });
  });
  return true;
}
