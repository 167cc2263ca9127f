import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import type { ProtocolEvent } from "@/lib/protocol";
import { readConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import { POST as stop } from "./[runId]/stop/route";
import { POST } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-route-"));
});

const post = (body: unknown) =>
  POST(
    new Request("http://localhost/api/runs", {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

async function collect(response: Response): Promise<RunStreamRecord[]> {
  const records: RunStreamRecord[] = [];
  if (response.body === null) throw new Error("no body");
  for await (const record of readRunStream(response.body)) records.push(record);
  return records;
}

const eventsOf = (records: RunStreamRecord[]) =>
  records.flatMap((record): ProtocolEvent[] => (record.kind === "event" ? [record.event] : []));

describe("POST /api/runs", () => {
  it.each([
    ["not json", "{", "body: not valid JSON."],
    ["missing message", { dialect: "xml" }, "message:"],
    ["empty message", { message: "  ", dialect: "xml" }, "message: must not be empty."],
    ["bad dialect", { message: "hi", dialect: "yaml" }, "dialect:"],
    [
      "missing dialect",
      { message: "hi" },
      "dialect: is required: one of xml, delimiter, action, hermes, or a dialect definition object.",
    ],
    [
      "a number for a dialect",
      { message: "hi", dialect: 5 },
      "dialect: must be one of xml, delimiter, action, hermes, or a dialect definition object.",
    ],
    ["unknown field", { message: "hi", dialect: "xml", extra: 1 }, 'body: unknown field "extra".'],
    [
      "bad setting",
      { message: "hi", dialect: "xml", model: { provider: "demo", settings: { temperature: 9 } } },
      "model.settings.temperature:",
    ],
    [
      "unknown provider",
      { message: "hi", dialect: "xml", model: { provider: "nope" } },
      'model.provider: Unknown provider "nope"',
    ],
    [
      // Stored in the transcript's header, listed with every page of GET /api/transcripts.
      "a model id of a megabyte",
      { message: "hi", dialect: "xml", model: { provider: "demo", id: "m".repeat(1_000_000) } },
      "model.id: Too big: expected string to have <=256 characters.",
    ],
    [
      "a model id of two lines",
      { message: "hi", dialect: "xml", model: { provider: "demo", id: "gpt\nforged line" } },
      "model.id: must be one line without control characters.",
    ],
    [
      "a model id with a line separator",
      { message: "hi", dialect: "xml", model: { provider: "demo", id: "gpt\u2028forged line" } },
      "model.id: must be one line without control characters.",
    ],
    [
      "a model id that reads backwards",
      { message: "hi", dialect: "xml", model: { provider: "demo", id: "gpt-\u202Eini-5" } },
      "model.id: must be one line without control characters.",
    ],
    [
      "a provider name of a megabyte",
      { message: "hi", dialect: "xml", model: { provider: "p".repeat(1_000_000) } },
      "model.provider: Too big: expected string to have <=64 characters.",
    ],
    [
      "unknown tool",
      { message: "hi", dialect: "xml", tools: ["list", "rm"] },
      'tools: unknown tool "rm"',
    ],
    [
      "a tool named twice",
      { message: "hi", dialect: "xml", tools: ["list", "read", "list"] },
      'tools: "list" is named twice',
    ],
  ])("refuses %s with a 400 naming the field", async (_name, body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: string };
    expect(json.error.startsWith(message)).toBe(true);
  });

  it("titles a conversation from its first message, cut before an emoji, never inside it", async () => {
    const response = await post({
      message: `${"x".repeat(56)}😀 and more words after it`,
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    const records = await collect(response);
    const first = records[0];
    const transcriptId = first?.kind === "run" ? first.transcriptId : "";
    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    expect(stored?.meta.title).toBe(`${"x".repeat(56)}…`);
  });

  it("answers 404 for an unknown transcript", async () => {
    const response = await post({ message: "hi", dialect: "xml", transcriptId: "missing" });
    expect(response.status).toBe(404);
  });

  it("streams the run's records in order and stores them", async () => {
    const response = await post({
      message: "list the files",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const records = await collect(response);
    const first = records[0];
    expect(first?.kind).toBe("run");
    const kinds = new Set(records.map((record) => record.kind));
    expect([...kinds].sort()).toEqual(["chunk", "event", "request", "run"]);
    const events = eventsOf(records);
    expect(events[0]).toMatchObject({ type: "user", content: "list the files" });
    expect(events.find((event) => event.type === "call")).toMatchObject({ call: { name: "list" } });
    expect(events.find((event) => event.type === "result")).toMatchObject({
      payload: { status: "success" },
    });
    expect(events.at(-2)?.type).toBe("end");
    expect(events.at(-1)?.type).toBe("metric");
    const transcriptId = first?.kind === "run" ? first.transcriptId : "";
    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    expect(stored?.meta.title).toBe("list the files");
    expect(stored?.records.map(({ seq: _seq, runId: _runId, ...record }) => record)).toEqual(
      records.slice(1),
    );
  });

  it("continues a conversation by transcriptId with the earlier turns in context", async () => {
    const settings = { paceMs: 0 };
    const firstRun = await collect(
      await post({
        message: "list the files",
        dialect: "xml",
        model: { provider: "demo", settings },
      }),
    );
    const transcriptId = firstRun[0]?.kind === "run" ? firstRun[0].transcriptId : "";
    const second = await collect(
      await post({
        message: "read README.md",
        dialect: "xml",
        transcriptId,
        model: { provider: "demo", settings },
      }),
    );
    expect(second[0]).toMatchObject({ kind: "run", transcriptId });
    const request = second.find((record) => record.kind === "request");
    const text = JSON.stringify(request);
    expect(text).toContain("list the files");
    expect(text).toContain("<results>");
    const turns = second.flatMap((record) => (record.kind === "chunk" ? [record.turn] : []));
    expect(Math.min(...turns)).toBe(2);
  });

  it("action dialect: actions run with dependencies and $variables", async () => {
    const records = await collect(
      await post({
        message: "demo: dependencies",
        dialect: "action",
        model: { provider: "demo", settings: { paceMs: 0 } },
      }),
    );
    const events = eventsOf(records);
    const calls = events.filter((event) => event.type === "call");
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(
      calls.some((event) => event.type === "call" && (event.action?.dependsOn?.length ?? 0) > 0),
    ).toBe(true);
    const results = events.filter((event) => event.type === "result");
    for (const call of calls) {
      if (call.type !== "call") continue;
      expect(
        results.some((result) => result.type === "result" && result.callId === call.call.id),
      ).toBe(true);
    }
    expect(
      results.every((result) => result.type === "result" && result.payload.status === "success"),
    ).toBe(true);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
  });

  it("refuses a second run on a conversation that is still running, and a dialect switch", async () => {
    const first = await post({
      message: "demo: parallel batch",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 30 } },
    });
    if (first.body === null) throw new Error("no body");
    const reader = readRunStream(first.body);
    const opening = (await reader.next()).value;
    const transcriptId = opening?.kind === "run" ? opening.transcriptId : "";
    const second = await post({ message: "again", dialect: "xml", transcriptId });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toContain(
      "already has a run in progress",
    );
    const runId = opening?.kind === "run" ? opening.runId : "";
    await stop(new Request("http://localhost", { method: "POST" }), {
      params: Promise.resolve({ runId }),
    });
    for await (const _record of reader) {
      // drain to the end of the first run
    }
    const switched = await post({ message: "again", dialect: "delimiter", transcriptId });
    expect(switched.status).toBe(400);
    expect(
      ((await switched.json()) as { error: string }).error.startsWith(
        'dialect: this conversation is in "xml"',
      ),
    ).toBe(true);
    const continued = await post({
      message: "list the files",
      dialect: "xml",
      transcriptId,
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    expect(continued.status).toBe(200);
    await collect(continued);
  });

  it("refuses state-changing requests from other sites", async () => {
    const response = await POST(
      new Request("http://localhost:3000/api/runs", {
        method: "POST",
        headers: {
          origin: "https://evil.example",
          host: "localhost:3000",
          "content-type": "text/plain",
        },
        body: JSON.stringify({ message: "hi", dialect: "xml" }),
      }),
    );
    expect(response.status).toBe(403);
  });

  it("stops a run on request: the stream carries the interrupt and ends", async () => {
    const response = await post({
      message: "demo: parallel batch",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 40 } },
    });
    if (response.body === null) throw new Error("no body");
    const records: RunStreamRecord[] = [];
    for await (const record of readRunStream(response.body)) {
      records.push(record);
      if (record.kind === "run") {
        const stopped = await stop(new Request("http://localhost", { method: "POST" }), {
          params: Promise.resolve({ runId: record.runId }),
        });
        expect(stopped.status).toBe(200);
      }
    }
    expect(eventsOf(records).at(-1)).toMatchObject({ type: "interrupt", reason: "user" });
  });
});
