import { describe, expect, it } from "vitest";
import type { Dialect } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { planFork } from "../transcripts/fork";
import { writeFork } from "../transcripts/store-actions";
import { replayRecords } from "./replay";
import { recordRun, withoutTimestamps } from "./testing";

const CASES: [Dialect, string][] = [
  ["xml", "list the files"],
  ["xml", "demo: parallel batch"],
  ["xml", "demo: invalid json"],
  ["xml", "demo: unclosed block"],
  ["xml", "demo: forged results"],
  ["delimiter", "read README.md"],
  ["delimiter", "demo: unclosed block"],
  ["delimiter", "demo: invalid json"],
  ["action", "demo: dependencies"],
  ["action", "demo: stray text"],
  ["action", "demo: unclosed block"],
  ["action", "hello"],
];

const metricAt = (timestamp: number): TranscriptRecord => ({
  kind: "event",
  event: {
    type: "metric",
    id: "m1",
    timestamp,
    turn: 0,
    step: { input: 1, output: 1, durationMs: 9, ttftMs: 5 },
    total: { input: 1, output: 1, durationMs: 9 },
  },
});

describe("replayRecords", () => {
  it.each(CASES)(
    "%s · %s: the same records as the live run, and no differences",
    async (dialect, message) => {
      const { records } = await recordRun({ message, dialect });
      const replay = replayRecords(dialect, records);
      expect(replay.diffs).toEqual([]);
      expect(withoutTimestamps(replay.records)).toEqual(withoutTimestamps(records));
    },
  );

  it("a turn the user stopped inside <think> replays without an unclosed_block (as recorded)", () => {
    const at = 1_000;
    const records: TranscriptRecord[] = [
      { kind: "event", event: { type: "user", id: "u1", timestamp: at, content: "hi" } },
      { kind: "chunk", turn: 0, t: 5, text: "<think>still thin" },
      {
        kind: "event",
        event: {
          type: "think",
          id: "r-1",
          timestamp: at + 5,
          turn: 0,
          span: { start: 0, end: 17 },
          content: "still thin",
        },
      },
      metricAt(at + 8),
      { kind: "event", event: { type: "interrupt", id: "i1", timestamp: at + 9, reason: "user" } },
    ];
    const replay = replayRecords("xml", records);
    expect(replay.diffs).toEqual([]);
    const codes = replay.records.flatMap((record) =>
      record.kind === "event" && record.event.type === "error" ? [record.event.code] : [],
    );
    expect(codes).toEqual([]);
    // The same text ending the turn on its own (a metric, no interrupt) is a model fault.
    const ended = replayRecords("xml", records.slice(0, 4));
    expect(
      ended.records.some(
        (r) => r.kind === "event" && r.event.type === "error" && r.event.code === "unclosed_block",
      ),
    ).toBe(true);
  });

  it("replays a conversation of several runs (turns continue across runs)", async () => {
    const first = await recordRun({ message: "list the files", dialect: "xml" });
    const second = await recordRun(
      { message: "read README.md", dialect: "xml", transcriptId: first.transcript.meta.id },
      first.store,
    );
    const replay = replayRecords("xml", second.records);
    expect(replay.diffs).toEqual([]);
    expect(withoutTimestamps(replay.records)).toEqual(withoutTimestamps(second.records));
  });

  it("reports what a changed parser would show differently: changed, missing and extra", async () => {
    const { records } = await recordRun({ message: "list the files", dialect: "xml" });
    // As if an older parser had written the think block differently and seen an extra event.
    const edited: TranscriptRecord[] = records.map((record) =>
      record.kind === "event" && record.event.type === "think" && record.event.turn === 0
        ? { ...record, event: { ...record.event, content: `${record.event.content}!` } }
        : record,
    );
    const ghost: TranscriptRecord = {
      kind: "event",
      event: {
        type: "respond",
        id: "ghost",
        timestamp: 0,
        turn: 0,
        span: { start: 0, end: 1 },
        content: "boo",
      },
    };
    const withoutCall = edited.filter(
      (record) => !(record.kind === "event" && record.event.type === "call"),
    );
    const replay = replayRecords("xml", [...withoutCall, ghost]);
    const kinds = replay.diffs.map((diff) => [diff.turn, diff.kind, diff.fields ?? diff.id]);
    expect(kinds).toEqual([
      [0, "changed", ["content"]],
      [0, "missing", "ghost"],
      [0, "extra", expect.stringMatching(/\.t0-\d+$/)],
    ]);
    const changed = replay.diffs[0];
    const recordedText = changed?.recorded?.type === "think" ? changed.recorded.content : "";
    const reparsedText = changed?.reparsed?.type === "think" ? changed.reparsed.content : "";
    expect(recordedText).toContain("!");
    expect(reparsedText).toBe(recordedText.replaceAll("!", ""));
    // The replayed records carry the current parser's events, not the recorded ones.
    expect(withoutTimestamps(replay.records)).toEqual(withoutTimestamps(records));
  });

  it("re-parses the raw chunks, so a chunk that reads differently today shows up", async () => {
    const { records } = await recordRun({ message: "list the files", dialect: "xml" });
    const tampered = records.map((record) =>
      record.kind === "chunk" && record.turn === 0
        ? { ...record, text: record.text.replaceAll("think", "thonk") }
        : record,
    );
    const replay = replayRecords("xml", tampered);
    // `<thonk>` is plain text to the parser: the think block now reads as a response.
    const think = replay.diffs.find((diff) => diff.recorded?.type === "think");
    expect(think).toMatchObject({ turn: 0, kind: "changed", reparsed: { type: "respond" } });
    expect(think?.fields).toContain("type");
  });

  it("replays a transcript cut short by a crash without flushing the unfinished turn", async () => {
    const { records } = await recordRun({ message: "demo: parallel batch", dialect: "xml" });
    const lastThink = records.findLastIndex(
      (record) => record.kind === "event" && record.event.type === "think",
    );
    const prefix = records.slice(0, lastThink + 1);
    const replay = replayRecords("xml", prefix);
    expect(replay.diffs).toEqual([]);
    expect(withoutTimestamps(replay.records)).toEqual(withoutTimestamps(prefix));
  });

  it("replays a fork with an edited result, continued without a message", async () => {
    const { store, transcript } = await recordRun({ message: "list the files", dialect: "xml" });
    const result = transcript.records.find(
      (record) => record.kind === "event" && record.event.type === "result",
    );
    if (result?.kind !== "event" || result.event.type !== "result") throw new Error("no result");
    const planned = planFork(transcript, {
      at: result.seq,
      editResult: { callId: result.event.callId, content: ["mock.txt"] },
    });
    if (!planned.ok) throw new Error(planned.message);
    const { meta } = transcript;
    const fork = await writeFork(store, meta.id, planned.plan, meta.system, meta.tools);
    const resumed = await recordRun({ dialect: "xml", transcriptId: fork.id }, store);
    expect(resumed.records.length).toBeGreaterThan(planned.plan.records.length);
    const replay = replayRecords("xml", resumed.records);
    expect(replay.diffs).toEqual([]);
    expect(withoutTimestamps(replay.records)).toEqual(withoutTimestamps(resumed.records));
  });
});
