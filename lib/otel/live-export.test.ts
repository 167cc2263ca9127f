import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { recordRun } from "../replay/testing";
import { RunRegistry, runRegistry } from "../server/run-registry";
import { createMemoryStore, type Store } from "../store";
import { withLiveExport } from "./install";
import type { LiveExportConfig } from "./live-config";
import { LiveExporter } from "./live-export";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./testing/otlp-receiver";

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };
const REGISTRY = Symbol.for("wirescope.runs");
const HEADER_VALUE = "Bearer collector-token-0123456789";

let recorded: TranscriptRecord[] = [];
let receivers: OtlpReceiver[] = [];
const exporters: LiveExporter[] = [];

beforeAll(async () => {
  recorded = (await recordRun({ message: "list the files", dialect: "xml" })).records;
});

afterEach(async () => {
  for (const exporter of exporters.splice(0)) await exporter.shutdown();
  for (const receiver of receivers) await receiver.close();
  receivers = [];
  delete process.env.WIRESCOPE_OTLP_ENDPOINT;
  delete process.env.WIRESCOPE_OTLP_HEADERS;
  delete process.env.WIRESCOPE_OTLP_PROTOCOL;
  delete (globalThis as Record<symbol, unknown>)[REGISTRY];
});

async function receiver(mode: OtlpReceiver["mode"]): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver(mode);
  receivers.push(started);
  return started;
}

function config(url: string, overrides: Partial<LiveExportConfig> = {}): LiveExportConfig {
  return {
    url: `${url}/v1/traces`,
    headers: { authorization: HEADER_VALUE },
    content: false,
    timeoutMs: 300,
    queueSize: 10,
    protocol: "http/json",
    ...overrides,
  };
}

/** A run of the recorded records through a registry, as the runs route drives one. */
async function publishRun(
  registry: RunRegistry,
  store: Store,
): Promise<{ transcriptId: string; runId: string }> {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "scripted" },
  });
  const run = await registry.open({ store, transcriptId: meta.id });
  for (const record of recorded) run.publish(record);
  await registry.finish(run, store);
  return { transcriptId: meta.id, runId: run.runId };
}

function checkTree(spans: ReceivedSpan[]) {
  const root = spans.find((span) => span.parentSpanId === undefined);
  expect(root?.name).toBe("invoke_agent wirescope");
  const turns = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
  expect(turns.length).toBeGreaterThan(0);
  for (const turn of turns) expect(turn.parentSpanId).toBe(root?.spanId);
  const tools = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "execute_tool");
  expect(tools.length).toBeGreaterThan(0);
  const turnIds = new Set(turns.map((turn) => turn.spanId));
  for (const tool of tools) expect(turnIds.has(tool.parentSpanId ?? "")).toBe(true);
  const outputs = recorded.flatMap((record) =>
    record.kind === "event" && record.event.type === "metric" ? [record.event.step.output] : [],
  );
  expect(turns.map((turn) => turn.attributes["gen_ai.usage.output_tokens"])).toEqual(outputs);
}

describe("live OTLP export", () => {
  it("sends every finished run of the server's registry when WIRESCOPE_OTLP_ENDPOINT is set", async () => {
    const collector = await receiver("ok");
    process.env.WIRESCOPE_OTLP_ENDPOINT = collector.url;
    process.env.WIRESCOPE_OTLP_HEADERS = `authorization=${encodeURIComponent(HEADER_VALUE)}`;
    delete (globalThis as Record<symbol, unknown>)[REGISTRY];
    expect(runRegistry()).toBeInstanceOf(RunRegistry);
    const run = await recordRun({ message: "list the files", dialect: "xml" });
    await collector.waitFor(1);
    const [request] = collector.received;
    expect(request?.path).toBe("/v1/traces");
    expect(request?.headers.authorization).toBe(HEADER_VALUE);
    expect(request?.headers["content-type"]).toContain("application/json");
    const spans = request?.spans ?? [];
    expect(spans[0]?.attributes["gen_ai.conversation.id"]).toBe(run.transcript.meta.id);
    checkTree(spans);
  });

  it("sends OTLP/protobuf when WIRESCOPE_OTLP_PROTOCOL says so", async () => {
    const collector = await receiver("ok");
    process.env.WIRESCOPE_OTLP_ENDPOINT = collector.url;
    process.env.WIRESCOPE_OTLP_PROTOCOL = "http/protobuf";
    delete (globalThis as Record<symbol, unknown>)[REGISTRY];
    runRegistry();
    const run = await recordRun({ message: "list the files", dialect: "xml" });
    await collector.waitFor(1);
    const [request] = collector.received;
    expect(request?.path).toBe("/v1/traces");
    expect(request?.headers["content-type"]).toBe("application/x-protobuf");
    const body = request?.body ?? Buffer.alloc(0);
    // An ExportTraceServiceRequest: field 1 (resource spans), length-delimited; strings as UTF-8.
    expect(body[0]).toBe(0x0a);
    expect(body.includes("gen_ai.conversation.id")).toBe(true);
    expect(body.includes(run.transcript.meta.id)).toBe(true);
  });

  it("withLiveExport listens only when an endpoint is set", async () => {
    const collector = await receiver("ok");
    const store = createMemoryStore();
    const configured = withLiveExport(new RunRegistry(LIMITS), {
      WIRESCOPE_OTLP_ENDPOINT: collector.url,
    });
    const unconfigured = withLiveExport(new RunRegistry(LIMITS), {});
    await publishRun(unconfigured, store);
    await publishRun(configured, store);
    await collector.waitFor(1);
    await publishRun(unconfigured, store);
    expect(collector.arrivals).toBe(1);
    checkTree(collector.received[0]?.spans ?? []);
  });

  it("a hung endpoint holds no run: runs finish while it never answers, then it times out", async () => {
    const collector = await receiver("hang");
    const exporter = new LiveExporter(config(collector.url), {
      redact: (text) => text,
      log: () => {},
    });
    exporters.push(exporter);
    const registry = new RunRegistry(LIMITS);
    registry.onFinish((run, store) => exporter.enqueue({ store, ...run }));
    const store = createMemoryStore();
    await publishRun(registry, store);
    await collector.waitFor(1);
    // The first export is still waiting for an answer, and another run finishes all the same.
    const second = await publishRun(registry, store);
    expect(exporter.stats()).toMatchObject({ sent: 0, pending: 2 });
    expect((await store.getRunInfo(second.runId))?.endedAt).not.toBeNull();
    await exporter.idle();
    expect(exporter.stats()).toMatchObject({ sent: 0, failed: 2, pending: 0 });
  });

  it("a failing endpoint is counted and logged without the header values", async () => {
    const collector = await receiver("fail");
    const lines: string[] = [];
    const exporter = new LiveExporter(config(collector.url), {
      redact: (text) => text.replaceAll(HEADER_VALUE, "[redacted]"),
      log: (line) => lines.push(line),
    });
    exporters.push(exporter);
    const registry = new RunRegistry(LIMITS);
    registry.onFinish((run, store) => exporter.enqueue({ store, ...run }));
    const { runId } = await publishRun(registry, createMemoryStore());
    await exporter.idle();
    expect(collector.arrivals).toBe(1);
    expect(exporter.stats()).toMatchObject({ sent: 0, failed: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(runId);
    expect(lines.join("\n")).not.toContain("collector-token");
  });

  it("drops and counts runs past the queue size instead of holding them", async () => {
    const collector = await receiver("hang");
    const exporter = new LiveExporter(config(collector.url, { queueSize: 1 }), {
      redact: (text) => text,
      log: () => {},
    });
    exporters.push(exporter);
    const store = createMemoryStore();
    const job = { store, transcriptId: "t", runId: "r" };
    expect([exporter.enqueue(job), exporter.enqueue(job), exporter.enqueue(job)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(exporter.stats()).toMatchObject({ dropped: 1, pending: 2 });
    await exporter.idle();
  });

  it("a run-finish listener that throws does not break the run's finish", async () => {
    const registry = new RunRegistry(LIMITS);
    registry.onFinish(() => {
      throw new Error("listener broke");
    });
    const store = createMemoryStore();
    const original = console.error;
    console.error = () => {};
    try {
      const { runId } = await publishRun(registry, store);
      expect((await store.getRunInfo(runId))?.endedAt).not.toBeNull();
    } finally {
      console.error = original;
    }
  });
});
