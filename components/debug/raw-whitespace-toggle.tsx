"use client";

import { usePlayground } from "@/state/playground-store";

/** Raw's visible-whitespace switch: spaces, tabs and line breaks drawn as ·, → and ↵. */
export function RawWhitespaceToggle() {
  const on = usePlayground((state) => state.rawWhitespace);
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => usePlayground.getState().setUi({ rawWhitespace: !on })}
      aria-label="Show whitespace"
      title="Show spaces, tabs and line breaks in the raw text as · → ↵"
      className="rounded border border-border px-2 py-0.5 font-mono text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg aria-pressed:bg-surface-2 aria-pressed:text-fg"
    >
      <span aria-hidden="true">·↵</span>
      {/* Where the header is tight only the symbols show; the name stays for screen readers. */}
      <span aria-hidden="true" className="hidden 2xl:inline">
        {" "}
        Whitespace
      </span>
    </button>
  );
}
