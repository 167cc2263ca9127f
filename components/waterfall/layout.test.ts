import { describe, expect, it } from "vitest";
import { summarizeRecords } from "@/lib/metrics";
import type { ProtocolEvent } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import { layoutWaterfall } from "./layout";

const T0 = Date.UTC(2026, 0, 1);
const event = (value: ProtocolEvent): TranscriptRecord => ({ kind: "event", event: value });
const metric = (turn: number, at: number, durationMs: number, ttftMs: number, parent?: string) =>
  event({
    type: "metric",
    id: `m${turn}`,
    timestamp: T0 + at,
    turn,
    step: { input: 1, output: 1, durationMs, ttftMs },
    total: { input: 1, output: 1, durationMs },
    ...(parent === undefined ? {} : { parent }),
  });
const call = (turn: number, id: string, dependsOn: string[] = [], parent?: string) =>
  event({
    type: "call",
    id: `ev-${id}`,
    timestamp: T0,
    turn,
    span: { start: 0, end: 1 },
    call: { id, name: id === "agent" ? "researcher" : "read", args: {} },
    action: { type: id === "agent" ? "agent" : "tool", mode: "async", dependsOn },
    ...(parent === undefined ? {} : { parent }),
  });
const result = (id: string, at: number, durationMs: number, status = "success" as const) =>
  event({
    type: "result",
    id: `r-${id}`,
    timestamp: T0 + at,
    callId: id,
    payload: { tool: "read", status, content: "", outcome: "", durationMs },
  });

/** Turn 0: calls a and b in parallel, c after a, and a sub-agent whose turn 1 runs inside it. */
function records(): TranscriptRecord[] {
  return [
    call(0, "a"),
    call(0, "b"),
    call(0, "c", ["a"]),
    call(0, "agent"),
    metric(0, 100, 100, 20),
    metric(1, 300, 100, 10, "agent"),
    result("a", 200, 100),
    result("b", 250, 150),
    result("c", 300, 100),
    result("agent", 400, 200),
  ];
}

describe("layoutWaterfall", () => {
  it("puts each turn's calls under it and a sub-agent's turns under its call", () => {
    const layout = layoutWaterfall(summarizeRecords(records()), T0 + 400);
    expect(layout?.rows.map((row) => [row.kind, row.depth, row.label])).toEqual([
      ["turn", 0, "turn 0"],
      ["call", 0, "read"],
      ["call", 0, "read"],
      ["call", 0, "read"],
      ["call", 0, "researcher"],
      ["turn", 1, "turn 1"],
    ]);
  });

  it("places bars in time: ttft then streaming, parallel calls overlapping", () => {
    const layout = layoutWaterfall(summarizeRecords(records()), T0 + 400);
    expect(layout).toMatchObject({ start: T0, spanMs: 400 });
    const [turn, a, b] = layout?.rows ?? [];
    expect(turn?.segments).toEqual([
      { kind: "wait", from: 0, to: 0.05 },
      { kind: "stream", from: 0.05, to: 0.25 },
    ]);
    expect(a?.segments).toEqual([{ kind: "success", from: 0.25, to: 0.5 }]);
    expect(b?.segments).toEqual([{ kind: "success", from: 0.25, to: 0.625 }]);
  });

  it("a turn that got no token waits all along, and says so", () => {
    const untimed = event({
      type: "metric",
      id: "m0",
      timestamp: T0 + 100,
      turn: 0,
      step: { input: 1, output: 0, durationMs: 100 },
      total: { input: 1, output: 0, durationMs: 100 },
    });
    const [turn] = layoutWaterfall(summarizeRecords([untimed]), T0 + 100)?.rows ?? [];
    expect(turn?.segments).toEqual([
      { kind: "wait", from: 0, to: 1 },
      { kind: "stream", from: 1, to: 1 },
    ]);
    expect(turn?.description).toMatch(/: no token in 100 ms$/);
  });

  it("links a call to the calls it depends on, and bars to their cards", () => {
    const rows = layoutWaterfall(summarizeRecords(records()), T0 + 400)?.rows ?? [];
    const a = rows[1];
    const c = rows[3];
    expect(c?.dependsOn).toEqual([a?.key]);
    expect(a?.linkId).toBe("ev-a");
    expect(rows[0]?.linkId).toBe("m0");
  });

  it("draws a call with no result yet up to now, and nothing without timing", () => {
    const running = records().filter(
      (record) => !(record.kind === "event" && record.event.id === "r-agent"),
    );
    const rows = layoutWaterfall(summarizeRecords(running), T0 + 500)?.rows ?? [];
    expect(rows[4]?.segments).toEqual([{ kind: "running", from: 1, to: 1 }]);
    const unclocked = call(0, "a");
    if (unclocked.kind === "event") unclocked.event.timestamp = 0;
    expect(layoutWaterfall(summarizeRecords([unclocked]), 0)).toBeNull();
  });
});

describe("layoutWaterfall of a fork", () => {
  /** Turn 0 recorded on day 0 (copied into the fork), turn 1 run by the fork two days later. */
  const LATER = 2 * 86_400_000;
  const forked = (): TranscriptRecord[] => [
    call(0, "a"),
    metric(0, 100, 100, 20),
    result("a", 200, 100),
    metric(1, LATER + 100, 100, 20),
  ];

  it("breaks the axis at the days between them, so both runs keep their width", () => {
    const layout = layoutWaterfall(summarizeRecords(forked()), T0 + LATER + 100);
    expect(layout?.breaks).toHaveLength(1);
    expect(layout?.breaks[0]?.cutMs).toBe(LATER - 200);
    expect(layout?.shownMs).toBe(300);
    const [parent, , fork] = layout?.rows ?? [];
    // Turn 0 takes a third of what is shown, not 0.0001 % of two days.
    expect(parent?.segments.at(-1)?.to).toBeGreaterThan(0.3);
    expect(fork?.label).toBe("turn 1");
    expect(fork?.segments[0]?.from).toBeLessThan(0.7);
  });
});
