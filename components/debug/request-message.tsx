"use client";

import { memo, useMemo, useState } from "react";
import { formatCount } from "./format-count";
import { wrappedRows } from "./near-items";
import { estimateTokens, type MessageView } from "./request-content";
import { WireCode } from "./wire-code";

const ROLE_BADGE: Record<string, string> = {
  system: "text-warn border-warn/40",
  user: "text-info border-info/40",
  assistant: "text-accent border-accent/40",
};

/**
 * One message of a request: role, size, and its text (collapsible). Its text is always in the
 * DOM (find in page, copy and screen readers see every message), but highlighted only when
 * `near` the scrolled view, and laid out only when on screen (`content-visibility: auto`, at
 * an estimated height until first drawn): a request of hundreds of messages opens at once.
 */
export const RequestMessage = memo(function RequestMessage({
  message,
  open: initiallyOpen,
  near,
}: {
  message: MessageView;
  open: boolean;
  near: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const preview = message.text.slice(0, 200).split("\n", 1)[0] ?? "";
  const height = useMemo(() => estimatedHeight(message.text), [message.text]);

  return (
    <li data-request-message={message.role} className="border-b border-border/60">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 px-3 py-1.5 text-left hover:bg-surface-2"
      >
        <span className="w-3 shrink-0 font-mono text-[10px] text-fg-subtle" aria-hidden="true">
          {open ? "▾" : "▸"}
        </span>
        <span
          className={`rounded border px-1.5 font-mono text-[11px] leading-4 ${ROLE_BADGE[message.role] ?? "border-border text-fg-muted"}`}
        >
          {message.role}
        </span>
        {/* Named by what it shows (WCAG 2.5.3): "system message, ~120 tokens · …". */}
        <span className="sr-only"> message,</span>
        <span className="shrink-0 font-mono text-[11px] text-fg-subtle">
          ~{formatCount(estimateTokens(message.text))} tokens · {formatCount(message.text.length)}{" "}
          chars
        </span>
        {open ? null : (
          <span className="min-w-0 truncate font-mono text-[11px] text-fg-subtle">{preview}</span>
        )}
      </button>
      {open ? (
        <pre
          className="bg-wire-bg px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap [content-visibility:auto] [overflow-wrap:anywhere]"
          style={{ containIntrinsicSize: `auto ${height}px` }}
        >
          {near ? <WireCode text={message.text} /> : message.text}
        </pre>
      ) : null}
    </li>
  );
});

/**
 * About how tall a message's text is before it is drawn (20 px lines, 16 px of padding, ~64
 * columns): only the scrollbar's length depends on it, and the browser keeps the real height
 * once it has drawn the text (`auto`).
 */
function estimatedHeight(text: string): number {
  return wrappedRows(text, 64) * 20 + 16;
}
