"use client";

import { useEffect } from "react";
import { usePlayground } from "@/state/playground-store";

/** How long an informative notice stays (one with an action a little longer). */
const INFO_MS = 6_000;
const ACTION_MS = 10_000;

/**
 * The page's one notice, bottom centre: "Deleted … Undo", "Imported …", or a refused import.
 * Failures stay until dismissed, so the message can be read in full.
 */
export function NoticeToast() {
  const notice = usePlayground((state) => state.notice);
  const notify = usePlayground((state) => state.notify);

  useEffect(() => {
    if (notice === null || notice.tone === "danger") return;
    const current = notice.id;
    const timer = setTimeout(
      () => {
        if (usePlayground.getState().notice?.id === current) notify(null);
      },
      notice.action === undefined ? INFO_MS : ACTION_MS,
    );
    return () => clearTimeout(timer);
  }, [notice, notify]);

  if (notice === null) return null;
  const danger = notice.tone === "danger";
  return (
    <div
      role={danger ? "alert" : "status"}
      data-testid="notice"
      className={`fixed bottom-20 left-1/2 z-50 flex max-w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2 items-start gap-3 rounded-md border px-3 py-2 text-[13px] shadow-xl shadow-black/30 ${
        danger ? "border-danger/50 bg-surface text-danger" : "border-border bg-surface-2 text-fg"
      }`}
    >
      <span className="min-w-0 whitespace-pre-wrap break-words">{notice.text}</span>
      {notice.action !== undefined ? (
        <button
          type="button"
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
