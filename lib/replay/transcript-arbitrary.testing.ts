/**
 * Random transcripts for property tests of replay planning and timing (tests only): runs one
 * after another (a user message, or resumed without one), calls made at the same time
 * (records interleaved as they arrived), turns with and without their metric (a captured call
 * without usage, a crash), long runs, runtime errors, interrupts and results, with one stored
 * run id per run, none, or one for every run (imports allow both). Chunks are fed to the xml
 * parser as the agent loop does, so the recorded parser events are real.
 */
import fc from "fast-check";
import { createParser, type ProtocolEvent, type TranscriptRecord } from "../protocol";

export type ArbitraryRecord = TranscriptRecord & { runId?: string; seq: number };

interface TurnSpec {
  pieces: string[];
  /** Filler chunks streamed after the pieces (a long answer). */
  filler: number;
  metric: boolean;
  /** What the runtime writes after the turn. */
  after: "nothing" | "result" | "interrupt" | "stop" | "end";
  /** ms between chunks. */
  pace: number;
}

interface RunSpec {
  user: boolean;
  turns: TurnSpec[];
  /** ms since the transcript's start when it started (a clock skew may make it earlier). */
  startsAfter: number;
}

interface TranscriptSpec {
  ids: "each" | "none" | "shared";
  /** Runs one after another, or a few at once (interleaved by `order`). */
  blocks: { runs: RunSpec[]; order: number[] }[];
}

const PIECES = [
  "<think>",
  "hm ",
  "</think>",
  "<respond>",
  "the answer ",
  "</respond>",
  '<execute>[{"name": "read", "args": {}}]</execute>',
  "stray ",
  "<",
  "\n",
];

const turnSpec = (long: boolean): fc.Arbitrary<TurnSpec> =>
  fc.record({
    pieces: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }),
    filler: long
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constant(0) },
          { weight: 3, arbitrary: fc.integer({ min: 1, max: 250 }) },
          { weight: 2, arbitrary: fc.integer({ min: 1000, max: 2600 }) },
        )
      : fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
    metric: fc.boolean(),
    after: fc.constantFrom("nothing", "nothing", "result", "interrupt", "stop", "end"),
    pace: fc.integer({ min: 0, max: 300 }),
  });

const runSpec = (long: boolean): fc.Arbitrary<RunSpec> =>
  fc.record({
    user: fc.oneof(
      { weight: 4, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    turns: fc.array(turnSpec(long), { minLength: 1, maxLength: 4 }),
    startsAfter: fc.integer({ min: -100, max: 200 }),
  });

const transcriptSpec = (options: TranscriptOptions): fc.Arbitrary<TranscriptSpec> =>
  fc.record({
    ids: fc.constantFrom("each", "each", "none", "shared"),
    blocks: fc.array(
      fc
        .array(runSpec(options.long), { minLength: 1, maxLength: options.parallel ? 3 : 1 })
        .chain((runs) =>
          fc.record({
            runs: fc.constant(runs),
            order: fc.array(fc.nat({ max: runs.length - 1 }), { maxLength: 400 }),
          }),
        ),
      { minLength: 1, maxLength: 5 },
    ),
  });

export interface TranscriptOptions {
  /** With calls made at the same time. */
  parallel: boolean;
  /** With turns of thousands of chunks (else a few dozen at most). */
  long: boolean;
  /** Records kept from the start (the rest is cut off, as by a crash). */
  maxRecords: number;
}

/** Random transcripts, as the store holds them (`seq` from 1). */
export function arbitraryTranscript(options: TranscriptOptions): fc.Arbitrary<ArbitraryRecord[]> {
  return transcriptSpec(options).map((spec) => build(spec).slice(0, options.maxRecords));
}

/** Page sizes from `min` to `max` records: each in turn, the last repeating (`pagesOf`). */
export const arbitraryPageSizes = (min: number, max: number): fc.Arbitrary<number[]> =>
  fc.array(fc.integer({ min, max }), { minLength: 1, maxLength: 6 });

/** `records` cut into pages of `sizes` (the last size repeats to the end). */
export function pagesOf<T>(records: readonly T[], sizes: readonly number[]): T[][] {
  const pages: T[][] = [];
  let at = 0;
  for (let index = 0; at < records.length; index++) {
    const size = sizes[Math.min(index, sizes.length - 1)] ?? records.length;
    pages.push(records.slice(at, at + size));
    at += size;
  }
  return pages;
}

const EPOCH = 1_700_000_000_000;

function build(spec: TranscriptSpec): ArbitraryRecord[] {
  const out: TranscriptRecord[] = [];
  const runIds: (string | undefined)[] = [];
  let turn = 0;
  let clock = EPOCH;
  let run = 0;
  for (const block of spec.blocks) {
    const lists = block.runs.map((runSpec) => {
      const runId =
        spec.ids === "each" ? `run-${run}` : spec.ids === "shared" ? "imported" : undefined;
      run++;
      const records = runRecords(runSpec, clock + runSpec.startsAfter, () => turn++);
      return records.map((record) => ({ record, runId }));
    });
    // Interleaved as `order` says, then whatever is left, run by run.
    const next = lists.map(() => 0);
    const take = (index: number) => {
      const list = lists[index];
      const at = next[index] ?? 0;
      const item = list?.[at];
      if (item === undefined) return;
      next[index] = at + 1;
      out.push(item.record);
      runIds.push(item.runId);
    };
    for (const index of block.order) take(index);
    lists.forEach((list, index) => {
      while ((next[index] ?? 0) < list.length) take(index);
    });
    clock += 60_000;
  }
  return out.map((record, index) => {
    const runId = runIds[index];
    return { ...record, ...(runId === undefined ? {} : { runId }), seq: index + 1 };
  });
}

function runRecords(spec: RunSpec, epoch: number, nextTurn: () => number): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  const event = (event: ProtocolEvent) => out.push({ kind: "event", event });
  if (spec.user) event({ type: "user", id: `u${epoch}`, timestamp: epoch, content: "go" });
  let t = 0;
  for (const turnSpec of spec.turns) {
    const turn = nextTurn();
    out.push({
      kind: "request",
      turn,
      t,
      provider: "demo",
      model: "m",
      messages: [],
      settings: {},
    });
    const parser = createParser("xml", { turn, idPrefix: `t${turn}-`, clock: () => epoch + t });
    const texts = [...turnSpec.pieces, ...Array.from({ length: turnSpec.filler }, () => "a ")];
    const start = t;
    for (const text of texts) {
      t += turnSpec.pace;
      out.push({ kind: "chunk", turn, t, text });
      for (const parsed of parser.feed(text)) event(parsed);
    }
    if (turnSpec.metric) {
      for (const parsed of parser.end()) event(parsed);
      event({
        type: "metric",
        id: `t${turn}-metric`,
        timestamp: epoch + t + 5,
        turn,
        step: { input: 1, output: 1, durationMs: t - start + 5, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs: t + 5 },
      });
    }
    t += 20;
    const at = epoch + t;
    switch (turnSpec.after) {
      case "result":
        event({
          type: "result",
          id: `r${turn}`,
          timestamp: at,
          callId: `t${turn}-0`,
          turn,
          payload: { tool: "read", status: "success", content: "ok", outcome: "ok", durationMs: 3 },
        });
        break;
      case "interrupt":
        event({ type: "interrupt", id: `i${turn}`, timestamp: at, reason: "user" });
        break;
      case "stop":
        event({ type: "error", id: `e${turn}`, timestamp: at, code: "provider", message: "down" });
        break;
      case "end":
        event({ type: "end", id: `end${turn}`, timestamp: at, turn });
        break;
      case "nothing":
        break;
    }
  }
  return out;
}
