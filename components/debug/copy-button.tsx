"use client";

import { useEffect, useState } from "react";

type CopyState = "idle" | "copied" | "failed";

/** Copies text to the clipboard, with a visible confirmation and a fallback for old or locked-down browsers. */
export function CopyButton({ text, label }: { text: () => string; label: string }) {
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

  return (
    <button
      type="button"
      onClick={copy}
      className="rounded border border-border px-2 py-0.5 text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg"
    >
      <span aria-live="polite">
        {state === "copied" ? "Copied ✓" : state === "failed" ? "Copy failed" : label}
      </span>
    </button>
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
