"use client";

import { useState } from "react";
import { formatCount } from "./format-count";
import { estimateTokens, type MessageView } from "./request-content";
import { WireCode } from "./wire-code";

const ROLE_BADGE: Record<string, string> = {
  system: "text-warn border-warn/40",
  user: "text-info border-info/40",
  assistant: "text-accent border-accent/40",
};

/** One message of a request: role, size, and its text (collapsible) with wire markers highlighted. */
export function RequestMessage({
  message,
  open: initiallyOpen,
}: {
  message: MessageView;
  open: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const preview = message.text.slice(0, 200).split("\n", 1)[0] ?? "";

  return (
    <section data-request-message={message.role} className="border-b border-border/60">
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
        <pre className="bg-wire-bg px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap [overflow-wrap:anywhere]">
          <WireCode text={message.text} />
        </pre>
      ) : null}
    </section>
  );
}
