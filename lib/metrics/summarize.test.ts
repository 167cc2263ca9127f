import { describe, expect, it } from "vitest";
import { mergePrices } from "../cost/price-table";
import type { MetricEvent, ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { SAMPLE_START, sampleRecords } from "../transcripts/testing";
import { summarize, summarizeEvents, summarizeRecords } from "./summarize";
import type { RunSummary } from "./types";

const T0 = Date.UTC(2026, 0, 1);
const event = (value: ProtocolEvent): TranscriptRecord => ({ kind: "event", event: value });
const request = (turn: number, provider = "openai", model = "gpt-4.1"): TranscriptRecord => ({
  kind: "request",
  turn,
  t: 0,
  provider,
  model,
  messages: [{ role: "user", content: "x".repeat(40) }],
  settings: {},
});
const metric = (
  turn: number | undefined,
  at: number,
  step: MetricEvent["step"],
  tokenSource?: MetricEvent["tokenSource"],
): TranscriptRecord =>
  event({
    type: "metric",
    id: `m${turn ?? "?"}-${at}`,
    timestamp: T0 + at,
    ...(turn === undefined ? {} : { turn }),
    step,
    total: { input: 0, output: 0, durationMs: 0 },
    ...(tokenSource === undefined ? {} : { tokenSource }),
  });
const call = (turn: number, id: string, at: number, parent?: string): TranscriptRecord =>
  event({
    type: "call",
    id: `ev-${id}`,
    timestamp: T0 + at,
    turn,
    span: { start: 0, end: 1 },
    call: { id, name: "read", args: {} },
    ...(parent === undefined ? {} : { parent }),
  });
const result = (id: string, at: number, durationMs: number): TranscriptRecord =>
  event({
    type: "result",
    id: `res-${id}`,
    timestamp: T0 + at,
    callId: id,
    payload: { tool: "read", status: "success", content: "", outcome: "ok", durationMs },
  });

/** Two top-level turns, two parallel calls in the first, a runtime error without a turn. */
function twoTurns(): TranscriptRecord[] {
  return [
    event({ type: "user", id: "u", timestamp: T0, content: "go" }),
    request(0),
    { kind: "chunk", turn: 0, t: 5, text: "<execute>…</execute>" },
    call(0, "a", 20),
    call(0, "b", 21),
    metric(0, 100, { input: 1000, output: 200, durationMs: 100, ttftMs: 5 }, "provider"),
    result("a", 150, 50),
    result("b", 180, 70),
    request(1),
    metric(1, 300, { input: 1300, output: 50, durationMs: 110, ttftMs: 8 }, "provider"),
    event({ type: "error", id: "e", timestamp: T0 + 301, code: "internal", message: "boom" }),
    event({ type: "end", id: "end", timestamp: T0 + 305, turn: 1 }),
  ];
}

function expectSums(summary: RunSummary) {
  const sum = (pick: (turn: RunSummary["perTurn"][number]) => number) =>
    summary.perTurn.reduce((total, turn) => total + pick(turn), 0);
  expect(summary.turns).toBe(summary.perTurn.length);
  expect(summary.toolCalls).toBe(sum((turn) => turn.toolCalls));
  expect(summary.errors).toBe(sum((turn) => turn.errors));
  expect(summary.tokensIn).toBe(sum((turn) => turn.tokensIn));
  expect(summary.tokensOut).toBe(sum((turn) => turn.tokensOut));
  expect(summary.durationMs).toBe(sum((turn) => turn.wallMs));
  expect(summary.toolTimeMs).toBe(sum((turn) => turn.toolTimeMs));
  expect(summary.modelTimeMs).toBe(sum((turn) => turn.modelMs ?? 0));
  if (summary.cost !== null)
    expect(summary.cost.usd).toBeCloseTo(
      sum((t) => t.cost?.usd ?? 0),
      12,
    );
}

describe("summarizeRecords", () => {
  it("prices the input its prompt cache read or wrote at the cache rates, and sums them", () => {
    const step = { input: 10_000, output: 100, durationMs: 50, ttftMs: 5 };
    const records = [
      request(0, "anthropic", "claude-sonnet-4-5"),
      metric(0, 100, { ...step, cacheRead: 0, cacheWrite: 9_000 }, "provider"),
      request(1, "anthropic", "claude-sonnet-4-5"),
      metric(1, 300, { ...step, cacheRead: 9_000, cacheWrite: 0 }, "provider"),
    ];
    const summary = summarizeRecords(records, { prices: mergePrices() });
    const [write, read] = summary.perTurn;
    expect(write).toMatchObject({ cacheRead: 0, cacheWrite: 9_000 });
    expect(read).toMatchObject({ cacheRead: 9_000, cacheWrite: 0 });
    expect(summary).toMatchObject({ tokensIn: 20_000, cacheRead: 9_000, cacheWrite: 9_000 });
    // Sonnet: $3 in, $15 out, cache read $0.30, cache write $3.75 per million.
    expect(write?.cost?.usd).toBeCloseTo((1_000 * 3 + 9_000 * 3.75 + 100 * 15) / 1e6, 12);
    expect(read?.cost?.usd).toBeCloseTo((1_000 * 3 + 9_000 * 0.3 + 100 * 15) / 1e6, 12);
    // A price without cache rates charges cached input at the input rate, as before.
    const plain = summarizeRecords(records, {
      prices: mergePrices({ "anthropic/claude-sonnet-4-5": { input: 3, output: 15 } }),
    });
    expect(plain.cost?.usd).toBeCloseTo((20_000 * 3 + 200 * 15) / 1e6, 12);
    // A metric saying more was cached than sent (stored before that was checked) is cut to fit.
    const over = summarizeRecords(
      [request(0), metric(0, 100, { ...step, input: 100, cacheRead: 500, cacheWrite: 500 })],
      { prices: mergePrices() },
    );
    expect(over).toMatchObject({ tokensIn: 100, cacheRead: 100, cacheWrite: 0 });
    expectSums(summary);
  });

  it("prices Anthropic's 1-hour cache writes at 2 × input, its 5-minute ones at 1.25 ×", () => {
    const step = { input: 10_000, output: 100, durationMs: 50, ttftMs: 5 };
    // 9,000 written: 6,000 to the 1-hour cache, 3,000 to the 5-minute one.
    const records = [
      request(0, "anthropic", "claude-sonnet-4-5"),
      metric(0, 100, { ...step, cacheWrite: 9_000, cacheWrite1h: 6_000 }, "provider"),
    ];
    const summary = summarizeRecords(records, { prices: mergePrices() });
    const [turn] = summary.perTurn;
    expect(turn).toMatchObject({ cacheWrite: 9_000, cacheWrite1h: 6_000 });
    expect(summary).toMatchObject({ cacheWrite: 9_000, cacheWrite1h: 6_000 });
    // Sonnet: $3 in, $3.75 a 5-minute write, $6 a 1-hour write, $15 out per million.
    expect(turn?.cost?.usd).toBeCloseTo(
      (1_000 * 3 + 3_000 * 3.75 + 6_000 * 6 + 100 * 15) / 1e6,
      12,
    );
    // A price without a 1-hour rate: 2 × its input rate, Anthropic's.
    const given = summarizeRecords(records, {
      prices: mergePrices({
        "anthropic/claude-sonnet-4-5": { input: 3, output: 15, cacheWrite: 3.75 },
      }),
    });
    expect(given.cost?.usd).toBeCloseTo(
      (1_000 * 3 + 3_000 * 3.75 + 6_000 * 6 + 100 * 15) / 1e6,
      12,
    );
    // More 1-hour writes than writes (a file's) is cut to the writes.
    const over = summarizeRecords(
      [request(0), metric(0, 100, { ...step, cacheWrite: 500, cacheWrite1h: 900 })],
      { prices: mergePrices() },
    );
    expect(over).toMatchObject({ cacheWrite: 500, cacheWrite1h: 500 });
    expectSums(summary);
  });

  it("counts per turn and sums them into the run's numbers", () => {
    const summary = summarizeRecords(twoTurns(), { prices: mergePrices() });
    expect(summary.perTurn.map((turn) => turn.turn)).toEqual([0, 1]);
    const [first, second] = summary.perTurn;
    expect(first).toMatchObject({ toolCalls: 2, errors: 0, tokensIn: 1000, tokensOut: 200 });
    expect(first?.ttftMs).toBe(5);
    // Calls a (100–150) and b (110–180) overlap: 80 ms of tool time, not 120.
    expect(first?.toolTimeMs).toBe(80);
    // Turn 0 starts at 0 (metric at 100 − 100 ms) and runs until turn 1 starts (190).
    expect(first?.startAt).toBe(T0);
    expect(first?.wallMs).toBe(180);
    expect(second).toMatchObject({ errors: 1, toolCalls: 0, startAt: T0 + 190, wallMs: 115 });
    expect(summary).toMatchObject({
      turns: 2,
      toolCalls: 2,
      errors: 1,
      tokensIn: 2300,
      tokensOut: 250,
      tokenSource: "provider",
      ttftMs: 5,
      durationMs: 295,
      modelTimeMs: 210,
      toolTimeMs: 80,
    });
    // gpt-4.1 at $2 / $8 per million: 2300 × 2 + 250 × 8 = 6600 micro-dollars.
    expect(summary.cost?.usd).toBeCloseTo(0.0066, 10);
    expect(summary.cost).toMatchObject({ unpriced: [], prices: ["shipped"] });
    expectSums(summary);
  });

  it("says when counts are estimates, and mixed when turns differ", () => {
    const records = twoTurns().map((record) =>
      record.kind === "event" && record.event.type === "metric" && record.event.turn === 1
        ? { ...record, event: { ...record.event, tokenSource: "estimate" as const } }
        : record,
    );
    const summary = summarizeRecords(records);
    expect(summary.perTurn.map((turn) => turn.tokenSource)).toEqual(["provider", "estimate"]);
    expect(summary.tokenSource).toBe("mixed");
    const estimated = summarizeRecords(
      records.filter(
        (r) => !(r.kind === "event" && r.event.type === "metric" && r.event.turn === 0),
      ),
    );
    expect(estimated.perTurn[0]?.tokenSource).toBe("estimate");
    expect(estimated.perTurn[0]?.measured).toBe(false);
  });

  it("estimates tokens from the text of a transcript without metric events (an import)", () => {
    const records: TranscriptRecord[] = [
      request(0),
      { kind: "chunk", turn: 0, t: 1, text: "a".repeat(30) },
      { kind: "chunk", turn: 0, t: 2, text: "b".repeat(11) },
      call(0, "a", 0),
    ];
    const summary = summarizeRecords(records, { prices: mergePrices() });
    expect(summary.turns).toBe(1);
    // 40 characters of input → 10 tokens; 41 characters of output → 11.
    expect(summary).toMatchObject({ tokensIn: 10, tokensOut: 11, tokenSource: "estimate" });
    expect(summary.perTurn[0]).toMatchObject({ measured: false, ttftMs: null, modelMs: null });
    expect(summary.toolCalls).toBe(1);
    expect(summary.cost?.tokenSource).toBe("estimate");
    expectSums(summary);
  });

  it("a measured turn that got no token has no ttft (null), not 0", () => {
    const records: TranscriptRecord[] = [
      request(0),
      metric(0, 100, { input: 10, output: 0, durationMs: 100 }, "estimate"),
    ];
    const summary = summarizeRecords(records, { prices: mergePrices() });
    expect(summary.perTurn[0]).toMatchObject({ measured: true, ttftMs: null, modelMs: 100 });
    expect(summary.ttftMs).toBeNull();
  });

  it("takes a turn without a metric (a captured call without usage) to last as long as its text took", () => {
    const records: TranscriptRecord[] = [
      event({ type: "user", id: "u", timestamp: T0, content: "go" }),
      { ...request(0), t: 10 } as TranscriptRecord,
      { kind: "chunk", turn: 0, t: 400, text: "a".repeat(30) },
      { kind: "chunk", turn: 0, t: 7_610, text: "b".repeat(11) },
      event({
        type: "respond",
        id: "t0-1",
        timestamp: T0 + 7_600,
        turn: 0,
        span: { start: 0, end: 41 },
        content: "ab",
      }),
    ];
    const summary = summarizeRecords(records);
    expect(summary.perTurn[0]).toMatchObject({ measured: false, modelMs: null, wallMs: 7_600 });
    expect(summary.durationMs).toBe(7_600);
    // The same from a folded log (the page's run summary).
    const folded = summarize({
      events: records.flatMap((record) => (record.kind === "event" ? [record.event] : [])),
      turns: new Map([
        [
          0,
          {
            raw: "a".repeat(30) + "b".repeat(11),
            request: { provider: "openai", model: "gpt-4.1", messages: [], t: 10 },
            chunks: [{ t: 400 }, { t: 7_610 }],
          },
        ],
      ]),
    });
    expect(folded.perTurn[0]?.wallMs).toBe(7_600);
  });

  it("gives a metric without a turn (older transcripts) to the earliest turn without one", () => {
    const records = twoTurns().map((record) => {
      if (record.kind !== "event" || record.event.type !== "metric") return record;
      const { turn: _turn, tokenSource: _source, ...old } = record.event;
      return { kind: "event" as const, event: old };
    });
    const summary = summarizeRecords(records);
    expect(summary.perTurn.map((turn) => turn.tokensIn)).toEqual([1000, 1300]);
    expect(summary.tokenSource).toBe("unknown");
    expectSums(summary);
  });

  it("marks models without a price and sums only the priced turns", () => {
    const records = twoTurns().map((record) =>
      record.kind === "request" && record.turn === 1
        ? request(1, "openai", "gpt-7-unknown")
        : record,
    );
    const summary = summarizeRecords(records, { prices: mergePrices() });
    expect(summary.perTurn[1]?.cost).toBeNull();
    expect(summary.cost?.unpriced).toEqual(["openai/gpt-7-unknown"]);
    expect(summary.cost?.usd).toBeCloseTo((1000 * 2 + 200 * 8) / 1e6, 12);
    expectSums(summary);
  });

  it("has no cost without prices, and the demo model costs 0", () => {
    expect(summarizeRecords(twoTurns()).cost).toBeNull();
    const demo = twoTurns().map((record) =>
      record.kind === "request" ? request(record.turn, "demo", "scripted") : record,
    );
    expect(summarizeRecords(demo, { prices: mergePrices() }).cost?.usd).toBe(0);
  });

  it("keeps a sub-agent's turns apart: counted, but their time is inside their parent's", () => {
    const records: TranscriptRecord[] = [
      request(0),
      call(0, "agent", 10),
      metric(0, 50, { input: 10, output: 10, durationMs: 50, ttftMs: 1 }, "estimate"),
      event({ type: "user", id: "su", timestamp: T0 + 60, content: "sub", parent: "agent" }),
      request(1),
      call(1, "inner", 70, "agent"),
      metric(1, 90, { input: 5, output: 5, durationMs: 25, ttftMs: 2 }, "estimate"),
      result("inner", 95, 4),
      result("agent", 120, 60),
    ];
    const summary = summarizeRecords(records);
    expect(summary.perTurn[1]).toMatchObject({ parent: "agent", wallMs: 0, toolCalls: 1 });
    expect(summary.perTurn[0]?.wallMs).toBe(120);
    expect(summary).toMatchObject({ turns: 2, toolCalls: 2, durationMs: 120 });
    expectSums(summary);
  });

  it("sums the shared sample transcript (every event type, a sub-agent, two turns)", () => {
    const summary = summarizeRecords(sampleRecords(), { prices: mergePrices() });
    expect(summary.turns).toBe(3);
    expect(summary.toolCalls).toBe(2);
    expect(summary.errors).toBe(2);
    expect(summary.perTurn[0]?.startAt).toBeCloseTo(SAMPLE_START + 0.4, 5);
    expectSums(summary);
  });

  it("works on events alone", () => {
    const events = twoTurns().flatMap((record) => (record.kind === "event" ? [record.event] : []));
    const summary = summarizeEvents(events, {
      prices: mergePrices(),
      model: { provider: "openai", id: "gpt-4.1" },
    });
    expect(summary).toMatchObject({ turns: 2, toolCalls: 2, errors: 1, tokensIn: 2300 });
    expect(summary.cost?.usd).toBeCloseTo(0.0066, 10);
  });

  it("counts errors when there is no turn at all", () => {
    const summary = summarizeEvents([
      { type: "error", id: "e", timestamp: 0, code: "storage_failed", message: "disk full" },
    ]);
    expect(summary).toMatchObject({ turns: 0, errors: 1, tokenSource: "unknown", cost: null });
  });

  it("counts captured calls made at the same time once in the run's wall time", () => {
    const step = (durationMs: number) => ({ input: 10, output: 60, durationMs, ttftMs: 40 });
    const respond = (turn: number, at: number): TranscriptRecord =>
      event({
        type: "respond",
        id: `t${turn}-1`,
        timestamp: T0 + at,
        turn,
        span: { start: 0, end: 1 },
        content: "w",
      });
    // Three calls of about 6 s, started within 30 ms of each other, recorded interleaved.
    const records: TranscriptRecord[] = [
      event({ type: "user", id: "u", timestamp: T0, content: "go" }),
      request(0),
      request(1),
      request(2),
      respond(0, 50),
      respond(1, 60),
      respond(2, 70),
      metric(0, 6100, step(6100)),
      metric(1, 6110, step(6090)),
      metric(2, 6130, step(6100)),
    ];
    const summary = summarizeRecords(records);
    expect(summary.perTurn.map((turn) => turn.wallMs)).toEqual([6100, 6090, 6100]);
    // From the first start (0) to the last end (6130), not 18 290 ms.
    expect(summary.durationMs).toBe(6130);
    // One after another (each starting after the one before answered), they still add up.
    const sequential = summarizeRecords([
      event({ type: "user", id: "u", timestamp: T0, content: "go" }),
      request(0),
      metric(0, 6100, step(6100)),
      request(1),
      metric(1, 12_300, step(6100)),
    ]);
    expect(sequential.durationMs).toBe(6100 + 6100);
  });
});
