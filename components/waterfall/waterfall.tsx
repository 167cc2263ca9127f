"use client";

import { type KeyboardEvent, useRef } from "react";
import type { RunSummary } from "@/lib/metrics";
import { usePlayground } from "@/state/playground-store";
import { layoutWaterfall, type SegmentKind, type WaterfallRow } from "./layout";
import { BreakBands, TimeScale } from "./time-scale";
import { WaterfallLinks } from "./waterfall-links";

export const ROW_HEIGHT = 22;

const SEGMENT: Record<SegmentKind, string> = {
  wait: "bg-fg-subtle/35",
  stream: "bg-info",
  success: "bg-accent",
  failure: "bg-danger",
  skipped: "bg-fg-subtle/50",
  running: "bg-warn",
};

/**
 * One run's time as bars: each model turn (waiting for the first token, then streaming), its
 * calls under it (parallel calls overlap, a row each; action dependencies drawn as lines) and
 * sub-agent runs nested under the call that started them. Hover or focus a bar and its card
 * and raw span light up; Enter or a click selects it. Arrow keys move between bars. Long idle
 * gaps (a fork's pause) are cut out of the axis and marked.
 */
export function Waterfall({ summary, now }: { summary: RunSummary; now: number }) {
  const layout = layoutWaterfall(summary, now);
  const list = useRef<HTMLOListElement>(null);
  if (layout === null) {
    return (
      <p className="px-3 py-2 text-xs text-fg-subtle" data-testid="waterfall">
        No timing in this transcript: it was recorded without a clock or metrics.
      </p>
    );
  }
  const onKeyDown = (key: KeyboardEvent<HTMLOListElement>) => {
    if (key.key !== "ArrowDown" && key.key !== "ArrowUp") return;
    const bars = [...(list.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const at = bars.indexOf(document.activeElement as HTMLButtonElement);
    const next = bars[at + (key.key === "ArrowDown" ? 1 : -1)];
    if (next === undefined) return;
    key.preventDefault();
    next.focus();
  };
  return (
    // The scale and the legend stay in view while the bars scroll under them (the panel has a
    // height limit): scrolled to the last turns, they had gone off with the first row.
    <div className="relative px-3" data-testid="waterfall">
      <div className="sticky top-0 z-10 bg-surface pt-1.5">
        <TimeScale breaks={layout.breaks} shownMs={layout.shownMs} />
      </div>
      <div className="relative">
        <BreakBands breaks={layout.breaks} />
        <WaterfallLinks rows={layout.rows} rowHeight={ROW_HEIGHT} />
        <ol
          ref={list}
          aria-label="Run waterfall: model turns and tool calls over time"
          onKeyDown={onKeyDown}
          className="relative"
        >
          {layout.rows.map((row, index) => (
            <Row key={row.key} row={row} first={index === 0} />
          ))}
        </ol>
      </div>
      <Legend />
    </div>
  );
}

function Row({ row, first }: { row: WaterfallRow; first: boolean }) {
  const hovered = usePlayground(
    (state) => row.linkId !== undefined && state.hoveredId === row.linkId,
  );
  const selected = usePlayground(
    (state) => row.linkId !== undefined && state.selectedId === row.linkId,
  );
  const from = Math.min(...row.segments.map((segment) => segment.from));
  const to = Math.max(...row.segments.map((segment) => segment.to));
  const width = Math.max(to - from, 0);
  const link = (on: boolean) => {
    if (row.linkId === undefined) return;
    const state = usePlayground.getState();
    if (on) state.hover(row.linkId);
    else if (state.hoveredId === row.linkId) state.hover(null);
  };
  return (
    <li className="flex items-center" style={{ height: ROW_HEIGHT }} data-row-kind={row.kind}>
      <span
        className={`w-32 shrink-0 truncate pr-2 font-mono text-[11px] ${
          row.kind === "turn" ? "text-fg" : "text-fg-muted"
        }`}
        style={{ paddingLeft: `${row.depth * 0.75 + (row.kind === "call" ? 0.75 : 0)}rem` }}
        title={row.label}
      >
        {row.kind === "call" ? "↳ " : ""}
        {row.label}
      </span>
      <span className="relative h-full min-w-0 flex-1">
        <button
          type="button"
          tabIndex={first ? 0 : -1}
          aria-label={row.description}
          title={row.description}
          data-waterfall-bar={row.kind}
          data-link-id={row.linkId}
          data-hovered={hovered || undefined}
          onPointerEnter={() => link(true)}
          onPointerLeave={() => link(false)}
          onFocus={() => link(true)}
          onBlur={() => link(false)}
          onClick={() => {
            if (row.linkId !== undefined) usePlayground.getState().select(row.linkId, row.turn);
          }}
          className={`absolute top-1/2 flex h-3 min-w-[3px] scroll-my-10 -translate-y-1/2 overflow-hidden rounded-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
            selected
              ? "outline outline-1 outline-accent"
              : hovered
                ? "outline outline-1 outline-info"
                : ""
          }`}
          style={{ left: `${from * 100}%`, width: `${width * 100}%` }}
        >
          {row.segments.map((segment) => (
            <span
              key={segment.kind}
              className={`h-full ${SEGMENT[segment.kind]}`}
              style={{
                width: width === 0 ? "100%" : `${((segment.to - segment.from) / width) * 100}%`,
              }}
            />
          ))}
        </button>
      </span>
    </li>
  );
}

function Legend() {
  const items: { kind: SegmentKind; label: string }[] = [
    { kind: "wait", label: "to first token" },
    { kind: "stream", label: "streaming" },
    { kind: "success", label: "tool" },
    { kind: "failure", label: "failed" },
    { kind: "running", label: "running" },
  ];
  return (
    <p
      className="sticky bottom-0 z-10 flex flex-wrap gap-x-3 gap-y-0.5 bg-surface pt-1 pb-1.5 pl-32 text-[10px] text-fg-subtle"
      data-testid="waterfall-legend"
    >
      {items.map((item) => (
        <span key={item.kind} className="inline-flex items-center gap-1">
          <span className={`inline-block h-2 w-3 rounded-sm ${SEGMENT[item.kind]}`} />
          {item.label}
        </span>
      ))}
      <span className="inline-flex items-center gap-1">
        <span className="inline-block h-px w-3 bg-fg-muted" /> depends on
      </span>
    </p>
  );
}
