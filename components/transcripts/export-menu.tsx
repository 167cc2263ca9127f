"use client";

import { useRef, useState } from "react";
import { useDismiss } from "@/hooks/use-dismiss";
import { exportUrl, type MarkdownSwitches } from "./api";
import { DownloadIcon } from "./icons";

const SWITCHES: { key: keyof MarkdownSwitches; label: string }[] = [
  { key: "reasoning", label: "Reasoning" },
  { key: "tools", label: "Tool calls" },
  { key: "requests", label: "Requests" },
];

const ITEM =
  "flex items-center justify-between gap-3 rounded px-2 py-1 text-xs text-fg hover:bg-surface-2";

/** Downloads of the open transcript: JSONL (to import again), Markdown (to read), TaskSteps. */
export function ExportMenu({ transcriptId }: { transcriptId: string }) {
  const [open, setOpen] = useState(false);
  const [switches, setSwitches] = useState<MarkdownSwitches>({
    reasoning: true,
    tools: true,
    requests: false,
  });
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => setOpen(!open)}
        className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg aria-expanded:bg-surface-2 aria-expanded:text-fg"
      >
        <DownloadIcon />
        Export
      </button>
      {open ? (
        <div
          role="menu"
          aria-label="Export"
          className="absolute top-8 right-0 z-30 flex w-60 flex-col gap-0.5 rounded-md border border-border bg-surface p-1.5 shadow-2xl"
        >
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "jsonl")}
            download
            onClick={() => setOpen(false)}
          >
            JSONL <span className="text-[11px] text-fg-subtle">every record</span>
          </a>
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "tasksteps")}
            download
            onClick={() => setOpen(false)}
          >
            TaskSteps JSON <span className="text-[11px] text-fg-subtle">spec §7</span>
          </a>
          <div className="my-1 border-t border-border" />
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "markdown", switches)}
            download
            onClick={() => setOpen(false)}
          >
            Markdown <span className="text-[11px] text-fg-subtle">to read</span>
          </a>
          <div className="flex flex-wrap gap-x-3 gap-y-1 px-2 pt-0.5 pb-1">
            {SWITCHES.map(({ key, label }) => (
              <label key={key} className="flex items-center gap-1 text-[11px] text-fg-muted">
                <input
                  type="checkbox"
                  checked={switches[key]}
                  onChange={(change) => setSwitches({ ...switches, [key]: change.target.checked })}
                  className="accent-[var(--ws-accent)]"
                />
                {label}
              </label>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
