"use client";

import { useEffect, useState } from "react";
import { usePlayground } from "@/state/playground-store";

/** How long an informative notice stays (one with an action a little longer). */
const INFO_MS = 6_000;
const ACTION_MS = 10_000;
/** Longest title quoted in a notice; a longer one is cut (the sidebar shows it whole). */
const TITLE_CHARS = 80;

/** A transcript's title as a notice quotes it: `"…"`, cut to `TITLE_CHARS`. */
export function quotedTitle(title: string): string {
  const chars = [...title];
  return `"${chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join("")}…` : title}"`;
}

/**
 * The page's one notice, bottom centre: "Deleted … Undo", "Imported …", or a refused import.
 * Failures stay until dismissed, so the message can be read in full; others go after a while,
 * but not while the pointer is over the notice or the focus is in it. A notice's action
 * ("Undo") also runs on Ctrl+Z (⌘Z) while the focus is not in a text field, so it need not be
 * reached by Tab.
 */
export function NoticeToast() {
  const notice = usePlayground((state) => state.notice);
  const notify = usePlayground((state) => state.notify);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;

  // Gone (dismissed, undone, timed out): the element that held the pointer or the focus went
  // with it, and neither leave nor blur is sent for a removed element. Kept, the next notice
  // would count as held from the start and never go.
  if (notice === null && (hovered || focused)) {
    setHovered(false);
    setFocused(false);
  }

  useEffect(() => {
    if (notice === null || notice.tone === "danger" || held) return;
    const current = notice.id;
    const timer = setTimeout(
      () => {
        if (usePlayground.getState().notice?.id === current) notify(null);
      },
      notice.action === undefined ? INFO_MS : ACTION_MS,
    );
    return () => clearTimeout(timer);
  }, [notice, notify, held]);

  useEffect(() => {
    const action = notice?.action;
    if (action === undefined) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isUndoKey(event) || isTextField(event.target)) return;
      event.preventDefault();
      action.run();
      notify(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [notice, notify]);

  if (notice === null) return null;
  const danger = notice.tone === "danger";
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only hold the notice; its buttons are the controls
    <div
      role={danger ? "alert" : "status"}
      data-testid="notice"
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      className={`fixed bottom-20 left-1/2 z-50 flex max-w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2 items-start gap-3 rounded-md border px-3 py-2 text-[13px] shadow-xl shadow-black/30 ${
        danger ? "border-danger/50 bg-surface text-danger" : "border-border bg-surface-2 text-fg"
      }`}
    >
      <span className="min-w-0 whitespace-pre-wrap break-words">{notice.text}</span>
      {notice.action !== undefined ? (
        <button
          type="button"
          aria-keyshortcuts="Control+Z Meta+Z"
          title={`${notice.action.label} (Ctrl+Z)`}
          className="shrink-0 font-medium text-accent hover:underline"
          onClick={() => {
            notice.action?.run();
            notify(null);
          }}
        >
          {notice.action.label}
        </button>
      ) : null}
      <button
        type="button"
        aria-label="Dismiss"
        className="shrink-0 text-fg-subtle hover:text-fg"
        onClick={() => notify(null)}
      >
        ×
      </button>
    </div>
  );
}

const isUndoKey = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) &&
  !event.altKey &&
  !event.shiftKey &&
  event.key.toLowerCase() === "z";

/** Where Ctrl+Z undoes typing, not the notice's action. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  return (
    target instanceof HTMLInputElement && !["button", "checkbox", "radio"].includes(target.type)
  );
}
