import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readRunStream } from "@/lib/client/run-stream";
import {
  decodeOtlpJson,
  type OtlpReceiver,
  startOtlpReceiver,
} from "@/lib/otel/testing/otlp-receiver";
import { POST as startRun } from "../runs/route";
import { GET as exportTranscript } from "./[id]/export/route";
import { POST as sendOtlp } from "./[id]/otlp/route";

let transcriptId = "";
let receiver: OtlpReceiver | undefined;

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-otlp-"));
  const response = await startRun(
    new Request("http://localhost/api/runs", {
      method: "POST",
      body: JSON.stringify({
        dialect: "xml",
        model: { provider: "demo", settings: { paceMs: 0 } },
        message: "list the files",
      }),
    }),
  );
  if (response.body === null) throw new Error("no body");
  for await (const record of readRunStream(response.body))
    if (record.kind === "run") transcriptId = record.transcriptId;
});

afterEach(async () => {
  delete process.env.WIRESCOPE_OTLP_ENDPOINT;
  await receiver?.close();
  receiver = undefined;
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const exportOf = (id: string, query: string) =>
  exportTranscript(
    new Request(`http://localhost/api/transcripts/${id}/export?${query}`),
    params(id),
  );
const send = (id: string) =>
  sendOtlp(
    new Request(`http://localhost/api/transcripts/${id}/otlp`, { method: "POST" }),
    params(id),
  );

describe("GET /api/transcripts/:id/export?format=otlp", () => {
  it("downloads OTLP/JSON: one trace per run, run → chat → execute_tool", async () => {
    const response = await exportOf(transcriptId, "format=otlp");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/\.otlp\.json"/);
    const spans = decodeOtlpJson(await response.json());
    const root = spans.find((span) => span.parentSpanId === undefined);
    expect(root?.attributes["gen_ai.conversation.id"]).toBe(transcriptId);
    const chat = spans.find((span) => span.name === "chat scripted");
    expect(chat?.parentSpanId).toBe(root?.spanId);
    const tool = spans.find((span) => span.name.startsWith("execute_tool "));
    expect(spans.find((span) => span.spanId === tool?.parentSpanId)?.name).toBe("chat scripted");
    expect(JSON.stringify(spans)).not.toContain("wirescope.wire.text");
  });

  it("puts the raw wire text in with content=1, and refuses a bad switch naming it", async () => {
    const spans = decodeOtlpJson(
      await (await exportOf(transcriptId, "format=otlp&content=1")).json(),
    );
    const chat = spans.find((span) => span.name === "chat scripted");
    expect(String(chat?.attributes["wirescope.wire.text"])).toContain("<execute>");
    const bad = await exportOf(transcriptId, "format=otlp&content=yes");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^content:/);
  });

  it("the same transcript exports to the same ids", async () => {
    const ids = async () =>
      decodeOtlpJson(await (await exportOf(transcriptId, "format=otlp")).json()).map(
        (span) => span.spanId,
      );
    expect(await ids()).toEqual(await ids());
  });
});

describe("POST /api/transcripts/:id/otlp", () => {
  it("refuses with 409 naming the variable when no endpoint is configured", async () => {
    const response = await send(transcriptId);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^WIRESCOPE_OTLP_ENDPOINT: /,
    );
  });

  it("sends the transcript to the configured endpoint only", async () => {
    receiver = await startOtlpReceiver("ok");
    process.env.WIRESCOPE_OTLP_ENDPOINT = receiver.url;
    const response = await send(transcriptId);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { sent: { traces: number; spans: number } };
    expect(body.sent.traces).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.spans).toHaveLength(body.sent.spans);
    expect((await send("no-such-transcript")).status).toBe(404);
  });

  it("answers 502 when the endpoint fails", async () => {
    receiver = await startOtlpReceiver("fail");
    process.env.WIRESCOPE_OTLP_ENDPOINT = receiver.url;
    const response = await send(transcriptId);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toMatch(/OTLP endpoint/);
  });
});
