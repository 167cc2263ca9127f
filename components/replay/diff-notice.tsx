"use client";

import { useState } from "react";
import type { ReplayDiff } from "@/lib/replay/diff";
import { countDiffs, diffSide, diffSummary } from "./diff-text";

/**
 * Where today's parser disagrees with the recording: always said when there is any, with
 * the list a click away. Never dismissed: a parser change that alters old runs must show.
 */
export function DiffNotice({ diffs }: { diffs: readonly ReplayDiff[] }) {
  const [open, setOpen] = useState(false);
  if (diffs.length === 0) return null;
  return (
    <section
      className="border-t border-warn/30 bg-warn/10 px-3 py-1.5 text-xs"
      data-testid="replay-diffs"
      aria-label="Differences from the recorded run"
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 text-left text-warn"
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span>
        <span className="font-medium">{countDiffs(diffs.length)}</span>
      </button>
      {open ? (
        <p className="mt-0.5 pl-5 text-fg-muted">
          Re-parsing the recorded chunks with the current parser gave other events than the ones
          recorded. The timeline shows the recording until you replay; a replay shows the re-parse.
        </p>
      ) : null}
      {open ? (
        <ol className="mt-1.5 flex max-h-72 flex-col gap-1 overflow-y-auto pb-1">
          {diffs.map((diff) => (
            <DiffItem key={`${diff.turn}:${diff.id}:${diff.kind}`} diff={diff} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function DiffItem({ diff }: { diff: ReplayDiff }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="rounded border border-border bg-surface" data-testid="replay-diff">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 px-2 py-1 text-left font-mono text-[11px] text-fg"
      >
        <span aria-hidden="true" className="text-fg-subtle">
          {open ? "▾" : "▸"}
        </span>
        {diffSummary(diff)}
      </button>
      {open ? (
        <div className="grid grid-cols-2 gap-2 border-t border-border p-2">
          <Side title="Recorded" text={diffSide(diff.recorded, diff.fields)} />
          <Side title="Re-parsed now" text={diffSide(diff.reparsed, diff.fields)} />
        </div>
      ) : null}
    </li>
  );
}

function Side({ title, text }: { title: string; text: string }) {
  return (
    <div className="min-w-0">
      <h4 className="mb-1 text-[10px] font-medium uppercase tracking-wide text-fg-subtle">
        {title}
      </h4>
      <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-wire-bg p-1.5 font-mono text-[11px] text-fg">
        {text}
      </pre>
    </div>
  );
}
