/**
 * Test helpers: a stored transcript that holds every event type, a sub-agent, every record
 * kind and awkward text (unicode beyond the BMP, quotes, line breaks, markers, a U+2028).
 * Not used by product code.
 */
import type { ProtocolEvent } from "../protocol/events";
import type { StoredRecord, Transcript, TranscriptRecord } from "../store/store";

export const SAMPLE_START = Date.UTC(2025, 5, 1, 12, 0, 0);

const at = (ms: number) => SAMPLE_START + ms;
const event = (value: ProtocolEvent): TranscriptRecord => ({ kind: "event", event: value });

/** The records of a short xml run: think, a call of each kind, results, respond, end, metric. */
export function sampleRecords(): TranscriptRecord[] {
  const think = 'Lïst the fîles first 🧐 — "quoted", <tag>, line\nbreak\u2028sep';
  const answer = "Found `notes/` and README.md ✅ — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢";
  return [
    event({ type: "user", id: "u1", timestamp: at(0), content: "list the files ✨ «please»" }),
    {
      kind: "request",
      turn: 0,
      t: 0.4,
      provider: "demo",
      model: "scripted",
      messages: [
        { role: "system", content: "You are an agent." },
        { role: "user", content: "list the files ✨ «please»" },
      ],
      settings: { temperature: 0.5 },
    },
    { kind: "chunk", turn: 0, t: 12.5, text: "<think>Lïst the fîles" },
    event({
      type: "think",
      id: "r.t0-1",
      timestamp: at(13),
      turn: 0,
      span: { start: 0, end: 21 },
      content: "Lïst the fîles",
    }),
    { kind: "chunk", turn: 0, t: 30, text: " first 🧐</think>" },
    event({
      type: "think",
      id: "r.t0-1",
      timestamp: at(30),
      turn: 0,
      span: { start: 21, end: 37 },
      content: think.slice("Lïst the fîles".length),
    }),
    event({
      type: "call",
      id: "r.t0-2",
      timestamp: at(40),
      turn: 0,
      span: { start: 40, end: 70 },
      call: { id: "c1", name: "list", args: { path: ".", deep: { nested: [1, null, "ü"] } } },
    }),
    event({
      type: "call",
      id: "r.t0-3",
      timestamp: at(41),
      turn: 0,
      span: { start: 71, end: 120 },
      call: { id: "c2", name: "researcher", args: { task: "look around" } },
      action: {
        type: "agent",
        mode: "async",
        outputKey: "found",
        dependsOn: ["c1"],
        timeout: 5,
        retry: 1,
        onError: "skip",
      },
    }),
    event({
      type: "execute",
      id: "r.t0-4",
      timestamp: at(42),
      turn: 0,
      span: { start: 30, end: 130 },
    }),
    event({
      type: "error",
      id: "r.t0-5",
      timestamp: at(43),
      turn: 0,
      span: { start: 131, end: 140 },
      code: "model_wrote_results",
      message: "The model wrote a results block itself.",
      raw: "<results>[]</results>",
    }),
    event({
      type: "metric",
      id: "m1",
      timestamp: at(50),
      step: { input: 120, output: 40, durationMs: 49.6, ttftMs: 12.1 },
      total: { input: 120, output: 40, durationMs: 49.6 },
    }),
    event({ type: "user", id: "s1", timestamp: at(55), content: "look around", parent: "c2" }),
    { kind: "chunk", turn: 1, t: 56, text: "<respond>sub answer</respond><end>" },
    event({
      type: "respond",
      id: "s.t1-1",
      timestamp: at(57),
      turn: 1,
      span: { start: 0, end: 28 },
      content: "sub answer",
      parent: "c2",
    }),
    event({
      type: "end",
      id: "s.t1-2",
      timestamp: at(58),
      turn: 1,
      span: { start: 28, end: 33 },
      parent: "c2",
    }),
    event({
      type: "result",
      id: "x1",
      timestamp: at(60),
      callId: "c1",
      turn: 0,
      payload: {
        tool: "list",
        status: "success",
        content: ["notes/", "README.md"],
        outcome: "Listed 2 entries",
        durationMs: 3,
      },
    }),
    event({
      type: "result",
      id: "x2",
      timestamp: at(61),
      callId: "c2",
      turn: 0,
      payload: {
        tool: "researcher",
        status: "failure",
        content: "sub answer",
        outcome: "Sub-agent stopped",
        durationMs: 6,
      },
    }),
    event({
      type: "error",
      id: "e2",
      timestamp: at(62),
      code: "tool_failed",
      message: "researcher failed",
      tool: "researcher",
      callId: "c2",
    }),
    { kind: "chunk", turn: 2, t: 80, text: `<respond>${answer}</respond><end>` },
    event({
      type: "respond",
      id: "r.t2-1",
      timestamp: at(81),
      turn: 2,
      span: { start: 0, end: answer.length + 19 },
      content: answer,
    }),
    event({ type: "end", id: "r.t2-2", timestamp: at(82), turn: 2, span: { start: 50, end: 55 } }),
    event({ type: "interrupt", id: "i1", timestamp: at(90), reason: "user" }),
  ];
}

/** `sampleRecords()` as a stored transcript, with positions. */
export function sampleTranscript(): Transcript {
  const records: StoredRecord[] = sampleRecords().map((record, index) => ({
    ...record,
    seq: index + 1,
    runId: index < 12 ? "run-1" : "run-2",
  }));
  return {
    meta: {
      id: "sample-1",
      title: "List the files ✨",
      createdAt: SAMPLE_START,
      updatedAt: SAMPLE_START + 90,
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
      system: "You are an agent.\nUse <think>…</think>.",
      tools: ["list", "read"],
      source: "playground",
      parentId: "origin-0",
      forkPoint: 7,
    },
    records,
  };
}

/**
 * A long conversation of at least `events` event records: `sampleRecords()` and 150 streamed
 * answer pieces, again and again, one run each, every request repeating
 * the context before it and adding the new turn (as a real conversation's requests do; about
 * 180 events a run, a long streamed answer each). For round trips at the size of the longest ones.
 */
export function largeTranscript(events: number): Transcript {
  const pieces = Array.from(
    { length: 150 },
    (_, index): TranscriptRecord =>
      event({
        type: "respond",
        id: "r.t1-9",
        timestamp: at(100 + index),
        turn: 1,
        span: { start: index * 10, end: index * 10 + 10 },
        content: `piece ${index} ✓ `,
      }),
  );
  const base = [...sampleRecords(), ...pieces];
  const perRun = base.filter((record) => record.kind === "event").length;
  const runs = Math.ceil(events / perRun);
  const context: unknown[] = [{ role: "system", content: "You are an agent." }];
  const records: StoredRecord[] = [];
  for (let run = 0; run < runs; run++) {
    context.push({ role: "user", content: `list the files ✨ (${run})` });
    for (const record of base) {
      // Each run's events have ids of their own (a file repeating one is refused).
      const copy: TranscriptRecord =
        record.kind === "request"
          ? { ...record, turn: run, messages: [...context] }
          : record.kind === "event" && run > 0
            ? { ...record, event: { ...record.event, id: `${record.event.id}~${run}` } }
            : record;
      records.push({ ...copy, seq: records.length + 1, runId: `run-${run}` });
    }
    context.push({ role: "assistant", content: `Found notes/ and README.md (${run}) ✅` });
  }
  return { meta: { ...sampleTranscript().meta, id: "large-1", title: "Long" }, records };
}
