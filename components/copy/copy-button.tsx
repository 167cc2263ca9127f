"use client";

import { useEffect, useState } from "react";

type CopyState = "idle" | "copied" | "failed";

/**
 * Copies text to the clipboard: a visible confirmation, an announcement for screen readers,
 * and a fallback for old or locked-down browsers. `label` names the button ("Copy arguments");
 * `text` is read at click time, so a streaming value copies as it is then.
 */
export function CopyButton({
  text,
  label,
  short,
}: {
  text: () => string;
  label: string;
  /** A shorter visible text ("Copy") when space is tight; the accessible name stays `label`. */
  short?: string;
}) {
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1800);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    const value = text();
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState(copyWithTextarea(value) ? "copied" : "failed");
    }
  };

  const feedback = state === "copied" ? "Copied ✓" : state === "failed" ? "Copy failed" : null;
  return (
    <span className="inline-flex">
      <button
        type="button"
        onClick={(click) => {
          click.stopPropagation();
          void copy();
        }}
        aria-label={feedback ?? label}
        title={label}
        data-copy-state={state}
        className="rounded border border-border bg-surface px-2 py-0.5 text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg"
      >
        {feedback ?? short ?? label}
      </button>
      <span className="sr-only" aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}
      </span>
    </span>
  );
}

/** The pre-Clipboard-API way: select a hidden textarea and run the copy command. */
function copyWithTextarea(value: string): boolean {
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
