import type { ReactNode } from "react";

interface DisclosureProps {
  open: boolean;
  onToggle(open: boolean): void;
  /** The header row's content, after the chevron. */
  summary: ReactNode;
  children: ReactNode;
  /** What it holds ("thinking", "call list"): the button's tooltip. */
  label: string;
}

/**
 * A header button that opens and closes what is below it; the body unmounts when closed. Its
 * accessible name is its visible summary (WCAG 2.5.3) and `aria-expanded` carries the state.
 */
export function Disclosure({ open, onToggle, summary, children, label }: DisclosureProps) {
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        title={`${open ? "Collapse" : "Expand"} ${label}`}
        onClick={(click) => {
          click.stopPropagation();
          onToggle(!open);
        }}
        className="flex w-full min-w-0 items-center gap-2 px-3 py-1.5 text-left text-xs text-fg-muted hover:text-fg"
      >
        <Chevron open={open} />
        {summary}
      </button>
      {open ? children : null}
    </>
  );
}

export function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      viewBox="0 0 16 16"
      width="10"
      height="10"
      aria-hidden="true"
      className={`shrink-0 transition-transform ${open ? "rotate-90" : ""}`}
    >
      <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
