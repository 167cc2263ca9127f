"use client";

import { useEffect, useState } from "react";
import { focusKind } from "@/components/shortcuts/focus-kind";
import { type Notice, usePlayground } from "@/state/playground-store";

/** How long an informative notice stays (one with an action a little longer). */
const INFO_MS = 6_000;
const ACTION_MS = 10_000;
/** Longest title quoted in a notice; a longer one is cut (the sidebar shows it whole). */
const TITLE_CHARS = 80;

/** A transcript's title as a notice quotes it: `"…"`, cut to `TITLE_CHARS` characters as seen. */
export function quotedTitle(title: string): string {
  const shown = [...graphemes.segment(title)].map((part) => part.segment);
  return `"${shown.length > TITLE_CHARS ? `${shown.slice(0, TITLE_CHARS - 1).join("")}…` : title}"`;
}
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * The page's one notice, bottom centre: "Deleted … Undo", "Imported …", or a refused import.
 * Failures stay until dismissed, so the message can be read in full; others go after a while,
 * but not while the pointer is over the notice or the focus is in it. A notice's action
 * ("Undo", "Back to it") also runs on Ctrl+Z (⌘Z) where the single-key shortcuts would run
 * (not in a text field or a dialog), so it need not be reached by Tab.
 */
export function NoticeToast() {
  const notice = usePlayground((state) => state.notice);
  // Keyed: a new notice starts with nothing holding it, whatever held the one before.
  return notice === null ? null : <NoticeCard key={notice.id} notice={notice} />;
}

function NoticeCard({ notice }: { notice: Notice }) {
  const notify = usePlayground((state) => state.notify);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;

  useEffect(() => {
    if (notice.tone === "danger" || held) return;
    const timer = setTimeout(
      () => {
        if (usePlayground.getState().notice?.id === notice.id) notify(null);
      },
      notice.action === undefined ? INFO_MS : ACTION_MS,
    );
    return () => clearTimeout(timer);
  }, [notice, notify, held]);

  useEffect(() => {
    const action = notice.action;
    if (action === undefined) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || !isUndoKey(event)) return;
      const focus = focusKind(event.target);
      if (focus === "text" || focus === "dialog") return;
      event.preventDefault();
      action.run();
      notify(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [notice, notify]);

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
