"use client";

import { useState } from "react";
import { formatCount, formatDuration } from "@/components/timeline/format";
import { Waterfall } from "@/components/waterfall/waterfall";
import { useServerConfig } from "@/hooks/use-server-config";
import { formatUsd, SHIPPED_PRICES_DATE } from "@/lib/cost";
import type { RunSummary } from "@/lib/metrics";
import { usePlayground } from "@/state/playground-store";
import { describeCache, describeCost, TOKEN_SOURCE_MARK, TOKEN_SOURCE_TEXT } from "./describe";
import { PerTurnTable } from "./per-turn-table";
import { useRunSummary } from "./use-run-summary";

/**
 * The run summary header above the timeline: turns, calls, errors, duration, tokens in → out
 * and cost, live while a run streams, for any transcript shown (live, opened, replayed). Every
 * figure is the sum of the per-turn figures, which "Per turn" lists; "Waterfall" shows the
 * run's time as bars.
 */
export function RunSummaryBar() {
  const summary = useRunSummary();
  const running = usePlayground((state) => state.status === "running");
  // A long transcript opens from its newest records: the figures then cover only those.
  const partial = usePlayground((state) => (state.transcript?.records[0]?.seq ?? 1) > 1);
  const config = useServerConfig();
  const [open, setOpen] = useState<"turns" | "waterfall" | null>(null);
  if (summary.turns === 0 && !running) return null;
  const shippedDate = config?.prices?.shippedDate ?? SHIPPED_PRICES_DATE;
  const mark = TOKEN_SOURCE_MARK[summary.tokenSource];
  const toggle = (panel: "turns" | "waterfall") => setOpen(open === panel ? null : panel);
  return (
    <section aria-label="Run summary" className="shrink-0 border-b border-border bg-surface">
      <div
        className="flex min-h-7 flex-wrap items-center gap-x-3 gap-y-0.5 px-3 py-1 font-mono text-[11px] text-fg-subtle"
        data-testid="run-summary"
      >
        {partial ? (
          <span
            className="rounded border border-border px-1 text-fg-muted"
            data-testid="run-summary-partial"
            title="These figures cover the records loaded so far (the newest). Load all (above the timeline) to count the whole transcript."
          >
            loaded part
          </span>
        ) : null}
        <Stat name="turns" value={summary.turns} text={formatCount(summary.turns)} />
        <Stat name="calls" value={summary.toolCalls} text={formatCount(summary.toolCalls)} />
        <Stat
          name="errors"
          value={summary.errors}
          text={formatCount(summary.errors)}
          tone={summary.errors > 0 ? "text-danger" : undefined}
        />
        {/* "wall", as the per-turn column it sums: a metric card's "duration" is the model's stream. */}
        <Stat
          name="duration"
          label="wall"
          value={summary.durationMs}
          text={formatDuration(summary.durationMs)}
          title={`Wall time of the runs' turns; model ${formatDuration(summary.modelTimeMs)}, tools ${formatDuration(summary.toolTimeMs)}`}
        />
        <span
          title={TOKEN_SOURCE_TEXT[summary.tokenSource]}
          data-token-source={summary.tokenSource}
        >
          tokens{" "}
          <span className="text-fg-muted">
            <span data-stat="tokensIn" data-value={summary.tokensIn}>
              {formatCount(summary.tokensIn)}
            </span>
            {summary.cacheRead > 0 || summary.cacheWrite > 0 ? (
              <span
                data-stat="cacheRead"
                data-value={summary.cacheRead}
                title={describeCache(summary)}
              >
                {` (${formatCount(summary.cacheRead)} cached)`}
              </span>
            ) : null}
            {" → "}
            <span data-stat="tokensOut" data-value={summary.tokensOut}>
              {formatCount(summary.tokensOut)}
            </span>
            {mark === "" ? null : (
              <>
                <span aria-hidden="true"> {mark}</span>
                <span className="sr-only"> ({summary.tokenSource})</span>
              </>
            )}
          </span>
        </span>
        <span title={describeCost(summary.cost, shippedDate)}>
          cost{" "}
          <span className="text-fg-muted" data-stat="cost" data-value={summary.cost?.usd ?? ""}>
            {summary.cost === null
              ? "no price"
              : `${formatUsd(summary.cost.usd)}${summary.cost.unpriced.length > 0 ? "+" : ""}`}
          </span>
        </span>
        <span className="ml-auto flex items-center gap-1 font-sans">
          <Toggle label="Per turn" pressed={open === "turns"} onClick={() => toggle("turns")} />
          <Toggle
            label="Waterfall"
            pressed={open === "waterfall"}
            onClick={() => toggle("waterfall")}
          />
        </span>
      </div>
      {open === "turns" ? (
        <Panel label="Per-turn metrics">
          <PerTurnTable summary={summary} shippedDate={shippedDate} />
        </Panel>
      ) : null}
      {open === "waterfall" ? (
        <Panel label="Run waterfall">
          <Waterfall summary={summary} now={nowOf(summary, running)} />
        </Panel>
      ) : null}
    </section>
  );
}

function Stat({
  name,
  label,
  value,
  text,
  title,
  tone,
}: {
  name: string;
  label?: string;
  value: number;
  text: string;
  title?: string;
  tone?: string | undefined;
}) {
  return (
    <span title={title}>
      {label ?? name}{" "}
      <span className={tone ?? "text-fg-muted"} data-stat={name} data-value={value}>
        {text}
      </span>
    </span>
  );
}

function Toggle({ label, pressed, onClick }: { label: string; pressed: boolean; onClick(): void }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className="rounded px-1.5 py-0.5 text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg aria-pressed:bg-surface-2 aria-pressed:text-fg"
    >
      {label}
    </button>
  );
}

/**
 * A panel under the summary, at most 40% of the window high. A tab stop, so the keys scroll it:
 * the per-turn table is wider than the conversation column beside an open debug panel
 * (1024 px), and its right-hand columns (tool time, cost) had no way in by keyboard.
 */
function Panel({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard
      tabIndex={0}
      className="max-h-[40vh] overflow-auto border-t border-border focus-visible:-outline-offset-2"
    >
      {children}
    </section>
  );
}

/** The right edge of the waterfall: now while running, else the last thing that happened. */
function nowOf(summary: RunSummary, running: boolean): number {
  if (running) return Date.now();
  let last = 0;
  for (const turn of summary.perTurn) {
    last = Math.max(last, turn.startAt + (turn.modelMs ?? 0), turn.startAt + turn.wallMs);
    for (const call of turn.calls) last = Math.max(last, call.endAt ?? 0);
  }
  return last;
}
