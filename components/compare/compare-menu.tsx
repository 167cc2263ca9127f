"use client";

import { useRef, useState } from "react";
import { onMenuKeyDown, opensOnArrowDown, useFocusFirstItem } from "@/components/dialog/menu-keys";
import { useDismiss } from "@/hooks/use-dismiss";
import type { TranscriptMeta } from "@/lib/store/store";
import { comparePath } from "./paths";
import { RunAgainDialog } from "./run-again-dialog";

/**
 * The transcript header's "Compare" menu: with its parent (a fork), with another transcript
 * (the picker), or "Run again on…" another model or dialect and compare.
 */
export function CompareMenu({ meta, busy }: { meta: TranscriptMeta; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  const menu = useRef<HTMLDivElement>(null);
  useFocusFirstItem(open, menu);
  const item =
    "block w-full whitespace-nowrap rounded px-2 py-1 text-left text-xs text-fg hover:bg-surface-2 focus-visible:bg-surface-2";
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-compare-menu
        onClick={() => setOpen(!open)}
        onKeyDown={(key) => opensOnArrowDown(key, () => setOpen(true))}
        className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
      >
        Compare<span aria-hidden>&nbsp;▾</span>
      </button>
      {open ? (
        <div
          ref={menu}
          role="menu"
          aria-label="Compare"
          className="absolute right-0 top-7 z-30 rounded-md border border-border bg-surface p-1 shadow-2xl"
          onKeyDown={onMenuKeyDown}
        >
          {meta.parentId !== undefined ? (
            <a role="menuitem" className={item} href={comparePath(meta.parentId, meta.id)}>
              Compare with parent
            </a>
          ) : null}
          <a role="menuitem" className={item} href={comparePath(meta.id)}>
            Compare with…
          </a>
          <button
            type="button"
            role="menuitem"
            disabled={busy}
            className={`${item} disabled:opacity-40`}
            onClick={() => {
              setOpen(false);
              setDialog(true);
            }}
          >
            Run again on…
          </button>
        </div>
      ) : null}
      {dialog ? <RunAgainDialog meta={meta} onClose={() => setDialog(false)} /> : null}
    </div>
  );
}
