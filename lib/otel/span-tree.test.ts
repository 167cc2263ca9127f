import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import type { StoredRecord, Transcript } from "../store/store";
import { SAMPLE_START, sampleRecords, sampleTranscript } from "../transcripts/testing";
import { otlpJson } from "./otlp-json";
import { decodeOtlpJson, type ReceivedSpan } from "./testing/otlp-receiver";
import { transcriptSpans } from "./transcript-spans";

const SECRET = "sk-test1234567890abcdef";
const noRunInfo = { getRunInfo: async () => null };

/** The sample (every event type, a sub-agent, a failed tool, a parser error) as one run. */
function oneRun(extra: TranscriptRecord[] = []): Transcript {
  const sample = sampleTranscript();
  const records: StoredRecord[] = [...sampleRecords(), ...extra].map((record, index) => ({
    ...record,
    seq: index + 1,
    runId: "run-1",
  }));
  return { meta: sample.meta, records };
}

async function exported(transcript: Transcript, content = false): Promise<ReceivedSpan[]> {
  const spans = await transcriptSpans(noRunInfo, transcript, {
    content,
    redact: (text) => text.replaceAll(SECRET, "[redacted]"),
  });
  return decodeOtlpJson(JSON.parse(new TextDecoder().decode(otlpJson(spans))));
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const only = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = byName(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReceivedSpan;
};

describe("a transcript as OTLP spans", () => {
  it("builds the tree run → chat turn → tool call → sub-agent → its turn", async () => {
    const spans = await exported(oneRun());
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const run = only(spans, "invoke_agent wirescope");
    expect(run.parentSpanId).toBeUndefined();
    const turns = byName(spans, "chat scripted");
    expect(turns.map((span) => span.attributes["wirescope.turn"]).sort()).toEqual([0, 1, 2]);
    const turn = (n: number) =>
      turns.find((span) => span.attributes["wirescope.turn"] === n) as ReceivedSpan;
    expect(turn(0).parentSpanId).toBe(run.spanId);
    expect(turn(2).parentSpanId).toBe(run.spanId);
    const list = only(spans, "execute_tool list");
    const researcher = only(spans, "execute_tool researcher");
    expect(list.parentSpanId).toBe(turn(0).spanId);
    expect(researcher.parentSpanId).toBe(turn(0).spanId);
    const subAgent = only(spans, "invoke_agent researcher");
    expect(subAgent.parentSpanId).toBe(researcher.spanId);
    expect(turn(1).parentSpanId).toBe(subAgent.spanId);
    expect(spans).toHaveLength(7);
  });

  it("writes the GenAI attributes, and token usage equal to the metric events", async () => {
    const transcript = oneRun();
    const spans = await exported(transcript);
    const run = only(spans, "invoke_agent wirescope");
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "demo",
      "gen_ai.request.model": "scripted",
      "gen_ai.conversation.id": "sample-1",
      "wirescope.run.id": "run-1",
    });
    expect(run.resource["service.name"]).toBe("wirescope");
    const turn0 = byName(spans, "chat scripted").find(
      (span) => span.attributes["wirescope.turn"] === 0,
    );
    expect(turn0?.kind).toBe(3); // CLIENT
    expect(turn0?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "demo",
      "gen_ai.request.model": "scripted",
      "gen_ai.request.temperature": 0.5,
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 40,
      "wirescope.ttft_ms": 12.1,
    });
    const metrics = transcript.records.flatMap((record) =>
      record.kind === "event" && record.event.type === "metric" ? [record.event.step] : [],
    );
    const sum = (values: unknown[]) =>
      values.reduce<number>((total, value) => total + Number(value ?? 0), 0);
    const chats = byName(spans, "chat scripted");
    expect(sum(chats.map((span) => span.attributes["gen_ai.usage.input_tokens"]))).toBe(
      sum(metrics.map((step) => step.input)),
    );
    expect(run.attributes["gen_ai.usage.output_tokens"]).toBe(
      sum(metrics.map((step) => step.output)),
    );
    const list = only(spans, "execute_tool list");
    expect(list.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "list",
      "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.type": "function",
      "wirescope.tool.status": "success",
    });
    expect(list.status.code).toBe(0);
  });

  it("uses the recorded times: each span ends after it starts, children within their agent", async () => {
    const spans = await exported(oneRun());
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const span of spans) {
      expect(span.endMs, span.name).toBeGreaterThanOrEqual(span.startMs);
      expect(span.startMs, span.name).toBeGreaterThanOrEqual(SAMPLE_START);
      const parent = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);
      if (parent === undefined) continue;
      expect(span.startMs, span.name).toBeGreaterThanOrEqual(parent.startMs);
      if (parent.name.startsWith("invoke_agent"))
        expect(span.endMs, span.name).toBeLessThanOrEqual(parent.endMs);
    }
    const run = only(spans, "invoke_agent wirescope");
    expect(run.startMs).toBe(SAMPLE_START); // the user message
    expect(run.endMs).toBe(SAMPLE_START + 90); // the interrupt
    // The list tool ran for 3 ms up to its result at +60.
    const list = only(spans, "execute_tool list");
    expect([list.startMs - SAMPLE_START, list.endMs - SAMPLE_START]).toEqual([57, 60]);
    // Turn 0: its request at +0.4 to its metric at +50.
    const turn0 = spans.find(
      (span) => span.attributes["wirescope.turn"] === 0 && span.name.startsWith("chat"),
    );
    expect(turn0?.endMs).toBe(SAMPLE_START + 50);
    expect(turn0?.startMs).toBeCloseTo(SAMPLE_START + 0.4, 2);
  });

  it("marks errors: a failed tool, a parser error as an exception event, an interrupt", async () => {
    const spans = await exported(oneRun());
    const researcher = only(spans, "execute_tool researcher");
    expect(researcher.status.code).toBe(2); // ERROR
    expect(researcher.attributes["error.type"]).toBe("tool_failed");
    const turn0 = spans.find(
      (span) => span.attributes["wirescope.turn"] === 0 && span.name.startsWith("chat"),
    );
    expect(turn0?.events.map((event) => event.attributes["exception.type"])).toEqual([
      "model_wrote_results",
    ]);
    expect(turn0?.status.code).toBe(0);
    const run = only(spans, "invoke_agent wirescope");
    expect(run.events.map((event) => event.name)).toEqual(["wirescope.interrupt"]);
    expect(run.attributes["wirescope.interrupt.reason"]).toBe("user");
    expect(run.status.code).toBe(0);
  });

  it("gives the same ids on every export, and other ids for another transcript", async () => {
    const first = await exported(oneRun());
    const again = await exported(oneRun());
    expect(again.map((span) => [span.traceId, span.spanId])).toEqual(
      first.map((span) => [span.traceId, span.spanId]),
    );
    const other = oneRun();
    other.meta = { ...other.meta, id: "sample-2" };
    const moved = await exported(other);
    expect(moved[0]?.traceId).not.toBe(first[0]?.traceId);
    expect(new Set(first.map((span) => span.spanId)).size).toBe(first.length);
  });

  it("leaves content out unless asked, and redacts it when asked", async () => {
    const leak: TranscriptRecord = { kind: "chunk", turn: 2, t: 85, text: `key ${SECRET}` };
    const plain = await exported(oneRun([leak]));
    const text = JSON.stringify(plain);
    for (const name of [
      "gen_ai.input.messages",
      "wirescope.wire.text",
      "gen_ai.tool.call.arguments",
      "gen_ai.tool.call.result",
    ])
      expect(text).not.toContain(name);
    expect(text).not.toContain("Lïst the fîles");
    const full = await exported(oneRun([leak]), true);
    const turn2 = full.find(
      (span) => span.attributes["wirescope.turn"] === 2 && span.name.startsWith("chat"),
    );
    expect(turn2?.attributes["wirescope.wire.text"]).toContain("<respond>Found");
    expect(turn2?.attributes["wirescope.wire.text"]).toContain("key [redacted]");
    expect(JSON.stringify(full)).not.toContain(SECRET);
    const list = only(full, "execute_tool list");
    expect(JSON.parse(String(list.attributes["gen_ai.tool.call.arguments"]))).toEqual({
      path: ".",
      deep: { nested: [1, null, "ü"] },
    });
    expect(JSON.parse(String(list.attributes["gen_ai.tool.call.result"]))).toEqual([
      "notes/",
      "README.md",
    ]);
  });

  it("splits a transcript of several runs into one trace per run", async () => {
    const spans = await exported(sampleTranscript());
    const roots = spans.filter((span) => span.parentSpanId === undefined);
    expect(roots.map((span) => span.attributes["wirescope.run.id"])).toEqual(["run-1", "run-2"]);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(2);
    for (const span of spans) expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
