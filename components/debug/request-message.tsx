"use client";

import { memo, useMemo, useState } from "react";
import { formatCount } from "./format-count";
import {
  estimatedTextHeight,
  estimateTokens,
  MESSAGE_HEADER_PX,
  type MessageView,
} from "./request-content";
import { WireCode } from "./wire-code";

const ROLE_BADGE: Record<string, string> = {
  system: "text-warn border-warn/40",
  user: "text-info border-info/40",
  assistant: "text-accent border-accent/40",
};

/**
 * One message of a request: role, size, and its text (collapsible). Its text is always in the
 * DOM (find in page, copy and screen readers see every message), but highlighted only once it
 * has been `near` the scrolled view, and laid out only when on screen (`content-visibility:
 * auto`, at an estimated height until first drawn). Kept by position, and drawn again only
 * when its text changes: the next turn's request repeats the conversation so far, so a turn
 * switch redraws its last few messages, not hundreds.
 */
export const RequestMessage = memo(
  function RequestMessage({
    message,
    open: initiallyOpen,
    near,
  }: {
    message: MessageView;
    open: boolean;
    near: boolean;
  }) {
    // Per text: open or not, and highlighted once near (never un-highlighted by scrolling away).
    const [shown, setShown] = useState({ text: message.text, open: initiallyOpen, near });
    let current = shown;
    if (shown.text !== message.text) current = { text: message.text, open: initiallyOpen, near };
    else if (near && !shown.near) current = { ...shown, near: true };
    if (current !== shown) setShown(current);
    const { open } = current;
    const setOpen = (next: boolean) => setShown({ ...current, open: next });
    const preview = message.text.slice(0, 200).split("\n", 1)[0] ?? "";
    const height = useMemo(() => estimatedTextHeight(message.text), [message.text]);

    return (
      <li
        data-request-message={message.role}
        className="border-b border-border/60 [content-visibility:auto]"
        style={{ containIntrinsicSize: `auto ${MESSAGE_HEADER_PX + (open ? height : 0)}px` }}
      >
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
            className="bg-wire-bg px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap [overflow-wrap:anywhere]"
            data-highlighted={current.near || undefined}
          >
            {current.near ? <WireCode text={message.text} /> : message.text}
          </pre>
        ) : null}
      </li>
    );
  },
  (before, after) =>
    before.message.text === after.message.text &&
    before.message.role === after.message.role &&
    before.open === after.open &&
    before.near === after.near,
);
