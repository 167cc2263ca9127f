import type { CallTiming, RunSummary, TurnMetrics } from "@/lib/metrics";
import { type AxisBreak, type Interval, timeAxis } from "./axis";

export type SegmentKind = "wait" | "stream" | "success" | "failure" | "skipped" | "running";

export interface Segment {
  kind: SegmentKind;
  /** Share of the chart's time span, 0–1. */
  from: number;
  to: number;
}

export interface WaterfallRow {
  key: string;
  kind: "turn" | "call";
  /** Nesting: 0 for the run's own turns, +1 for each sub-agent level. */
  depth: number;
  label: string;
  /** What the bar says to a screen reader and in its tooltip. */
  description: string;
  /** The event hover and click link to (its card and raw span). */
  linkId?: string;
  turn: number;
  segments: Segment[];
  /** Keys of rows this call waits for (action `depends_on`, in the same turn). */
  dependsOn: string[];
  callId?: string;
}

export interface Waterfall {
  rows: WaterfallRow[];
  /** ms since the epoch at the chart's left edge, and its length in ms. */
  start: number;
  spanMs: number;
  /** Long idle gaps cut out of the axis (a fork's pause, a wait for the next message). */
  breaks: AxisBreak[];
  /** The time drawn to scale: `spanMs` less the cut gaps. */
  shownMs: number;
}

/**
 * The waterfall of a run: each top-level model turn as a row (time to first token, then
 * streaming), each of its calls as a row under it (parallel calls overlap in time, one row
 * each), and a sub-agent's turns nested under the call that started it. `now` ends the bars
 * of calls still running. Long idle gaps between bars are cut out of the axis (`timeAxis`).
 * Null when the transcript has no timing (no clock, no metrics).
 */
export function layoutWaterfall(summary: RunSummary, now: number): Waterfall | null {
  const timed = summary.perTurn.filter((turn) => turn.startAt > 0);
  if (timed.length === 0) return null;
  const starts = timed.map((turn) => turn.startAt);
  const ends = timed.flatMap((turn) => [
    turn.startAt + (turn.modelMs ?? 0),
    ...turn.calls.map((call) => call.endAt ?? now),
  ]);
  const start = Math.min(...starts);
  const spanMs = Math.max(1, Math.max(now, ...ends) - start);
  const axis = timeAxis(barsOf(timed, now), start, start + spanMs);
  const { at } = axis;

  const byParent = new Map<string, TurnMetrics[]>();
  for (const turn of timed) {
    if (turn.parent === undefined) continue;
    const list = byParent.get(turn.parent) ?? [];
    list.push(turn);
    byParent.set(turn.parent, list);
  }
  const rows: WaterfallRow[] = [];
  const addTurn = (turn: TurnMetrics, depth: number) => {
    // A turn that got no token waited all along: no streaming part.
    const first = turn.startAt + (turn.ttftMs ?? turn.modelMs ?? 0);
    const end = turn.startAt + (turn.modelMs ?? 0);
    rows.push({
      key: `turn-${turn.turn}`,
      kind: "turn",
      depth,
      label: `turn ${turn.turn}`,
      description: describeTurn(turn),
      ...(turn.metricId === undefined ? {} : { linkId: turn.metricId }),
      turn: turn.turn,
      segments: [
        { kind: "wait", from: at(turn.startAt), to: at(first) },
        { kind: "stream", from: at(first), to: at(end) },
      ],
      dependsOn: [],
    });
    for (const call of turn.calls) {
      rows.push(callRow(call, depth, at, now));
      for (const nested of byParent.get(call.callId) ?? []) addTurn(nested, depth + 1);
    }
  };
  for (const turn of timed) if (turn.parent === undefined) addTurn(turn, 0);
  // A sub-agent whose starting call is not in view (a partial transcript) still shows.
  const shown = new Set(rows.map((row) => row.key));
  for (const turn of timed) if (!shown.has(`turn-${turn.turn}`)) addTurn(turn, 1);
  return {
    rows: resolveDependencies(rows),
    start,
    spanMs,
    breaks: axis.breaks,
    shownMs: axis.shownMs,
  };
}

/** What the bars cover: each turn's model time and each call's run. */
function barsOf(turns: readonly TurnMetrics[], now: number): Interval[] {
  return turns.flatMap((turn) => [
    { start: turn.startAt, end: turn.startAt + (turn.modelMs ?? 0) },
    ...turn.calls.map((call) => ({ start: call.startAt ?? now, end: call.endAt ?? now })),
  ]);
}

/** `depends_on` names call ids of the same turn (ids repeat across runs, never in a turn). */
function resolveDependencies(rows: WaterfallRow[]): WaterfallRow[] {
  const keys = new Map<string, string>();
  for (const row of rows)
    if (row.callId !== undefined) keys.set(`${row.turn}/${row.callId}`, row.key);
  return rows.map((row) => ({
    ...row,
    dependsOn: row.dependsOn.flatMap((id) => {
      const key = keys.get(`${row.turn}/${id}`);
      return key === undefined ? [] : [key];
    }),
  }));
}

function callRow(
  call: CallTiming,
  depth: number,
  at: (ms: number) => number,
  now: number,
): WaterfallRow {
  const running = call.endAt === undefined;
  const from = call.startAt ?? now;
  const to = call.endAt ?? now;
  const kind: SegmentKind = running ? "running" : (call.status ?? "success");
  const mode = call.action === undefined ? "" : ` · ${call.action.type}, ${call.action.mode}`;
  const time = running ? "running" : formatMs(to - from);
  return {
    key: `call-${call.callId}-${call.eventId}`,
    kind: "call",
    depth,
    label: call.name,
    description: `call ${call.name} (${call.callId})${mode}: ${running ? "running" : call.status}, ${time}`,
    linkId: call.eventId,
    turn: call.turn,
    segments: [{ kind, from: at(from), to: at(to) }],
    // Call ids for now; `resolveDependencies` turns them into row keys.
    dependsOn: call.action?.dependsOn ?? [],
    callId: call.callId,
  };
}

function describeTurn(turn: TurnMetrics): string {
  const model = turn.model === undefined ? "" : ` ${turn.model}`;
  if (turn.modelMs === null) return `turn ${turn.turn}${model}: not measured`;
  if (turn.ttftMs === null)
    return `turn ${turn.turn}${model}: no token in ${formatMs(turn.modelMs)}`;
  return `turn ${turn.turn}${model}: first token after ${formatMs(turn.ttftMs ?? 0)}, ${formatMs(turn.modelMs)} in all`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
