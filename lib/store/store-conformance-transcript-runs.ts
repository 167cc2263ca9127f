/**
 * The shared suite's part on `listTranscriptRuns` (run from `store.test.ts` against each
 * implementation): the runs a transcript's records make, as replay times them, worked out by
 * the store without handing the records over.
 */
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol";
import type { TranscriptRecord } from "./store";
import { chunk, NEW, type OpenStore, START, storeFixture } from "./store-conformance";
import { request } from "./store-conformance-records";
import { transcriptRunsOf } from "./transcript-runs";

const event = (event: ProtocolEvent): TranscriptRecord => ({ kind: "event", event });
const userAt = (id: string, timestamp: number, parent?: string): TranscriptRecord =>
  event({ type: "user", id, timestamp, content: id, ...(parent === undefined ? {} : { parent }) });
const metric = (turn: number, timestamp: number): TranscriptRecord =>
  event({
    type: "metric",
    id: `m${turn}`,
    timestamp,
    turn,
    step: { input: 1, output: 1, durationMs: 5, ttftMs: 1 },
    total: { input: 1, output: 1, durationMs: 5 },
  });
const respondAt = (turn: number, timestamp: number): TranscriptRecord =>
  event({
    type: "respond",
    id: `r${turn}`,
    timestamp,
    turn,
    span: { start: 0, end: 1 },
    content: "a",
  });
const streamed = (turn: number, t: number): TranscriptRecord => ({ ...request(turn, []), t });

/** Records of every kind a run's span is made of, times arbitrary (a clock may go back). */
const arbitraryRecord: fc.Arbitrary<TranscriptRecord> = fc.oneof(
  fc
    .record({ at: fc.integer({ min: -5, max: 5000 }), sub: fc.boolean() })
    .map(({ at, sub }) => userAt(`u${at}`, START + at, sub ? "call-1" : undefined)),
  fc
    .record({ turn: fc.nat(3), t: fc.integer({ min: -1000, max: 900_000 }).map((n) => n / 100) })
    .map(({ turn, t }) => chunk("a", turn, t)),
  fc.record({ turn: fc.nat(3), t: fc.nat(9000) }).map(({ turn, t }) => streamed(turn, t)),
  fc
    .record({ turn: fc.nat(3), at: fc.integer({ min: -5, max: 9000 }), parsed: fc.boolean() })
    .map(({ turn, at, parsed }) =>
      parsed ? respondAt(turn, START + at) : metric(turn, START + at),
    ),
  fc
    .record({
      at: fc.nat(9000),
      code: fc.constantFrom("provider", "unclosed_block", "tool_failed"),
    })
    .map(({ at, code }) =>
      event({
        type: "error",
        id: `x${at}`,
        timestamp: START + at,
        code,
        message: "m",
        ...(code === "unclosed_block" ? { span: { start: 0, end: 1 } } : {}),
      }),
    ),
);

const arbitraryAppend = fc.tuple(
  fc.constantFrom("a", "b", "c"),
  fc.array(arbitraryRecord, { minLength: 1, maxLength: 8 }),
);

export function describeTranscriptRunConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}: transcript runs`, () => {
    const fixture = storeFixture(open);

    beforeEach(async () => {
      await fixture.store.createTranscript({ ...NEW, id: "t" });
    });

    it("splits records into runs at user messages and run id changes, each with its span", async () => {
      const { store } = fixture;
      // Run a: a user message, a turn (request, chunk, its parser's event), the runtime's end
      // and the turn's metric after the last chunk.
      await store.appendRecords("t", "a", [
        userAt("u1", START),
        streamed(0, 0),
        chunk("<respond>a", 0, 40),
        respondAt(0, START + 41),
        event({ type: "end", id: "e0", timestamp: START + 50, turn: 0 }),
        metric(0, START + 45),
      ]);
      // Run b, resumed (no user message); a sub-agent's task does not start a run.
      await store.appendRecords("t", "b", [
        streamed(1, 3),
        userAt("task", START + 900, "call-1"),
        chunk("x", 1, 7.5),
        chunk("y", 1, 6),
      ]);
      // Run a comes back (calls made at the same time), then b's next message starts a run.
      await store.appendRecords("t", "a", [
        event({
          type: "error",
          id: "x1",
          timestamp: START + 60,
          code: "unclosed_block",
          message: "open",
          span: { start: 0, end: 1 },
        }),
        event({
          type: "error",
          id: "x2",
          timestamp: START + 70,
          code: "provider",
          message: "down",
        }),
        event({
          type: "error",
          id: "x3",
          timestamp: START + 65,
          code: "provider",
          message: "down",
        }),
      ]);
      await store.appendRecords("t", "b", [userAt("u2", START + 2000), metric(2, START + 2100)]);

      const runs = await store.listTranscriptRuns("t");
      expect(runs).toEqual([
        {
          runId: "a",
          firstSeq: 1,
          lastSeq: 6,
          records: 6,
          startedAt: START,
          lastT: 40,
          tail: [
            { type: "end", span: false, at: START + 50 },
            { type: "metric", span: false, at: START + 45 },
            { type: "respond", span: true, at: START + 41 },
          ],
        },
        {
          runId: "b",
          firstSeq: 7,
          lastSeq: 10,
          records: 4,
          startedAt: null,
          lastT: 7.5,
          tail: [],
        },
        {
          runId: "a",
          firstSeq: 11,
          lastSeq: 13,
          records: 3,
          startedAt: null,
          lastT: null,
          tail: [
            { type: "error", code: "provider", span: false, at: START + 70 },
            { type: "error", code: "unclosed_block", span: true, at: START + 60 },
          ],
        },
        {
          runId: "b",
          firstSeq: 14,
          lastSeq: 15,
          records: 2,
          startedAt: START + 2000,
          lastT: null,
          tail: [
            { type: "metric", span: false, at: START + 2100 },
            { type: "user", span: false, at: START + 2000 },
          ],
        },
      ]);
      // The same as the records themselves tell.
      const transcript = await store.getTranscript("t");
      expect(runs).toEqual(transcriptRunsOf(transcript?.records ?? []));
    });

    it("finds the runs the records tell, whatever records and run ids come in what order", async () => {
      const { store } = fixture;
      let transcripts = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(arbitraryAppend, { maxLength: 12 }), async (appends) => {
          const id = `r${++transcripts}`;
          await store.createTranscript({ ...NEW, id });
          for (const [runId, records] of appends) await store.appendRecords(id, runId, records);
          const transcript = await store.getTranscript(id);
          expect(await store.listTranscriptRuns(id)).toEqual(
            transcriptRunsOf(transcript?.records ?? []),
          );
        }),
        { numRuns: 25 },
      );
    }, 60_000);

    it("has no runs without records, and none for an unknown or deleted transcript", async () => {
      const { store } = fixture;
      expect(await store.listTranscriptRuns("t")).toEqual([]);
      expect(await store.listTranscriptRuns("nope")).toBeNull();
      await store.appendRecords("t", "a", [userAt("u", START)]);
      expect(await store.listTranscriptRuns("t")).toHaveLength(1);
      await store.deleteTranscript("t");
      expect(await store.listTranscriptRuns("t")).toBeNull();
    });
  });
}
