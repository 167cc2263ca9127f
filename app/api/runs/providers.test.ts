import { mkdtemp } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import { type Dialect, type ErrorEvent, mergePieces, type ProtocolEvent } from "@/lib/protocol";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "@/lib/providers/testing/fake-provider-server";
import { FAKE_REASONING } from "@/lib/providers/testing/fake-script";
import { readConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import { POST } from "./route";

/**
 * Runs through the real AI SDK providers (`@ai-sdk/openai` chat, `@ai-sdk/anthropic`,
 * `@ai-sdk/openai-compatible`) against the fake provider server on a loopback port, end to
 * end through `POST /api/runs`: each provider's happy path, each failure, and a planted key
 * that must appear in no record, no stored transcript and no console output.
 */
const KEYS = {
  OPENAI_API_KEY: `wirescope-planted-openai-${Math.random().toString(36).slice(2)}`,
  ANTHROPIC_API_KEY: `wirescope-planted-anthropic-${Math.random().toString(36).slice(2)}`,
  WIRESCOPE_COMPAT_API_KEY: `wirescope-planted-compat-${Math.random().toString(36).slice(2)}`,
};
const PROVIDERS = ["openai", "anthropic", "compat"] as const;
const IDLE_TIMEOUT_MS = 1000;

let server: FakeProviderServer;
const output: string[] = [];
const restore: (() => void)[] = [];

beforeAll(async () => {
  server = await startFakeProviderServer();
  Object.assign(process.env, KEYS, {
    WIRESCOPE_DATA_DIR: await mkdtemp(join(tmpdir(), "wirescope-providers-")),
    OPENAI_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_BASE_URL: `${server.url}/v1`,
    WIRESCOPE_COMPAT_BASE_URL: `${server.url}/v1`,
    WIRESCOPE_COMPAT_NAME: "Fake compat",
    WIRESCOPE_STREAM_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
  });
  captureOutput();
});

afterAll(async () => {
  for (const undo of restore) undo();
  await server.close();
});

/** Everything written to the console or stdout/stderr while the tests run, kept (and passed on). */
function captureOutput() {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      output.push(args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(" "));
      original.apply(console, args);
    };
    restore.push(() => {
      console[method] = original;
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: never[]) => {
      output.push(String(chunk));
      return original(chunk as string, ...rest);
    }) as typeof stream.write;
    restore.push(() => {
      stream.write = original;
    });
  }
}

async function run(
  provider: string,
  id: string,
  message = "list the files",
  dialect: Dialect = "xml",
): Promise<{ status: number; records: RunStreamRecord[]; events: ProtocolEvent[]; body?: string }> {
  const response = await POST(
    new Request("http://localhost/api/runs", {
      method: "POST",
      body: JSON.stringify({ message, dialect, model: { provider, id } }),
    }),
  );
  if (response.status !== 200 || response.body === null) {
    return { status: response.status, records: [], events: [], body: await response.text() };
  }
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(response.body)) records.push(record);
  const events = records.flatMap((record) => (record.kind === "event" ? [record.event] : []));
  return { status: response.status, records, events };
}

const chunkText = (records: RunStreamRecord[]) =>
  records.map((record) => (record.kind === "chunk" ? record.text : "")).join("");

const lastError = (events: ProtocolEvent[]) =>
  events.filter((event): event is ErrorEvent => event.type === "error").at(-1);

describe.each(PROVIDERS)("POST /api/runs through the real %s provider", (provider) => {
  it.each<Dialect>(["xml", "delimiter", "action"])(
    "runs a tool and answers in %s (two model turns)",
    async (dialect) => {
      const { events, records } = await run(provider, "scripted", "list the files", dialect);
      const result = events.find((event) => event.type === "result");
      expect(result).toMatchObject({ payload: { tool: "list", status: "success" } });
      expect(events.some((event) => event.type === "respond")).toBe(true);
      expect(events.filter((event) => event.type === "error")).toEqual([]);
      const requests = records.filter((record) => record.kind === "request");
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({ provider, model: "scripted" });
      // Usage came from the provider's stream, not from the estimate.
      expect(events.find((event) => event.type === "metric")).toMatchObject({
        step: { output: expect.any(Number) },
      });
    },
  );

  it("sends the dialect's stop sequence; the boundary still parses when the model overruns", async () => {
    const { events, records } = await run(provider, "overrun");
    const request = records.find((record) => record.kind === "request");
    expect(request).toMatchObject({ settings: { stopSequences: ["\n<results>"] } });
    const sent = server.requests.filter((received) => received.model === "overrun").at(-1);
    const body = sent?.body as { stop?: unknown; stop_sequences?: unknown };
    expect(body.stop ?? body.stop_sequences).toEqual(["\n<results>"]);
    // The server cut at the stop sequence: no forged results ever arrived, the call ran.
    expect(chunkText(records)).not.toContain("forged by the model");
    expect(events.find((event) => event.type === "execute")).toBeDefined();
    expect(events.find((event) => event.type === "result")).toMatchObject({
      payload: { status: "success" },
    });
  });

  it.each([
    [
      "fail-401",
      /rejected the API key \(HTTP 401.*Check (OPENAI|ANTHROPIC|WIRESCOPE_COMPAT)_API_KEY/,
    ],
    ["fail-404", /does not know the model "fail-404" \(HTTP 404.*GET \/api\/models/],
    ["fail-429", /rate limiting.*\(HTTP 429.*Wait 7 s and try again/],
    ["fail-500", /server error \(HTTP 500.*try again in a moment/],
    ["fail-context", /longer than "fail-context"'s context window.*Start a new conversation/],
    ["cut-halfway", /broke in the middle of the answer.*What arrived before the failure is kept/],
    ["stall", /sent nothing for 1 s, so the stream was stopped.*WIRESCOPE_STREAM_IDLE_TIMEOUT_MS/],
  ])("%s becomes a clear provider error and the run ends cleanly", async (id, message) => {
    const { records, events } = await run(provider, id);
    const error = lastError(events);
    expect(error).toMatchObject({ code: "provider" });
    expect(error?.message).toMatch(message);
    expect(events.at(-1)).toBe(error); // nothing runs after the failure
    const transcriptId = records[0]?.kind === "run" ? records[0].transcriptId : "";
    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    expect(stored?.records.map(({ seq: _seq, runId: _runId, ...record }) => record)).toEqual(
      records.slice(1),
    );
    if (id === "cut-halfway" || id === "stall") {
      // What arrived before the failure is kept: raw chunks and the parsed think piece.
      expect(chunkText(records)).toContain("The user wants");
      expect(events.some((event) => event.type === "think")).toBe(true);
    }
  });
});

describe.each(["anthropic", "compat"])("reasoning %s streams apart from the text", (provider) => {
  // A reasoning parser (llama.cpp's default, vLLM's, Ollama's; Anthropic's thinking blocks)
  // takes the model's thinking out of its text: it was dropped without a word.
  it.each<[Dialect, string]>([
    ["xml", `<think>${FAKE_REASONING}</think>\n<think>The user wants`],
    ["delimiter", `§think: ${FAKE_REASONING}\n§think: The user wants`],
    ["action", `<thought>${FAKE_REASONING}</thought>\n<thought>The user wants`],
  ])("is written back in %s's think markers, parsed and run on", async (dialect, wire) => {
    const { events, records } = await run(provider, "reasoning", "list the files", dialect);
    expect(chunkText(records).startsWith(wire)).toBe(true);
    const thinks = mergePieces(events).filter((event) => event.type === "think");
    expect(thinks[0]).toMatchObject({ turn: 0, content: FAKE_REASONING.trim() });
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    expect(events.find((event) => event.type === "result")).toMatchObject({
      payload: { tool: "list", status: "success" },
    });
  });
});

describe("a native tool call from an OpenAI-compatible server", () => {
  // A server whose chat template parses the model's calls sends them as `tool_calls`, although
  // the run gave it no tools: the run used to end there as if the model had written nothing.
  it("is written in the dialect's call syntax, run, and answered", async () => {
    const frames = (model: string) =>
      [
        { choices: [{ index: 0, delta: { content: "<think>calling natively</think>" } }] },
        {
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: "call_1",
                    type: "function",
                    function: { name: "list", arguments: "" },
                  },
                ],
              },
            },
          ],
        },
        {
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"path": "."}' } }] },
            },
          ],
        },
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ].map((frame) => ({ id: "c", object: "chat.completion.chunk", created: 0, model, ...frame }));
    let answered = 0;
    const native = createHttpServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        // The first turn calls natively; the second (after the results) answers in text.
        const turn =
          answered++ === 0
            ? frames("native")
            : [
                {
                  id: "c",
                  choices: [{ index: 0, delta: { content: "<respond>Listed.</respond><end>" } }],
                },
                { id: "c", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
              ];
        for (const frame of turn) response.write(`data: ${JSON.stringify(frame)}\n\n`);
        response.end("data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => native.listen(0, "127.0.0.1", resolve));
    const address = native.address();
    const saved = process.env.WIRESCOPE_COMPAT_BASE_URL;
    process.env.WIRESCOPE_COMPAT_BASE_URL = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v1`;
    try {
      const { events, records } = await run("compat", "native");
      expect(chunkText(records)).toContain(
        '<think>calling natively</think>\n<execute>\n[\n  {"name":"list","args":{"path": "."}}\n]\n</execute>',
      );
      expect(events.find((event) => event.type === "call")).toMatchObject({
        call: { name: "list", args: { path: "." } },
      });
      expect(events.find((event) => event.type === "result")).toMatchObject({
        payload: { tool: "list", status: "success" },
      });
      expect(events.filter((event) => event.type === "error")).toEqual([]);
      expect(mergePieces(events).find((event) => event.type === "respond")).toMatchObject({
        content: "Listed.",
      });
      expect(events.some((event) => event.type === "end")).toBe(true);
    } finally {
      process.env.WIRESCOPE_COMPAT_BASE_URL = saved;
      native.closeAllConnections();
      native.close();
    }
  });
});

describe("POST /api/runs failures before any provider answers", () => {
  it("reports an unreachable host with the variable to check", async () => {
    const port = await closedPort();
    const saved = process.env.WIRESCOPE_COMPAT_BASE_URL;
    process.env.WIRESCOPE_COMPAT_BASE_URL = `http://127.0.0.1:${port}/v1`;
    try {
      const { events } = await run("compat", "scripted");
      const error = lastError(events);
      expect(error?.code).toBe("provider");
      expect(error?.message).toMatch(
        new RegExp(
          `Could not reach Fake compat at http://127\\.0\\.0\\.1:${port}/v1 .*ECONNREFUSED`,
        ),
      );
      expect(error?.message).toContain("WIRESCOPE_COMPAT_BASE_URL");
    } finally {
      process.env.WIRESCOPE_COMPAT_BASE_URL = saved;
    }
  });

  it("refuses an unconfigured provider with a 400 naming the variable", async () => {
    const { status, body } = await run("google", "gemini-3.5-flash");
    expect(status).toBe(400);
    expect(JSON.parse(body ?? "{}")).toEqual({
      error:
        "model.provider: Google is not configured on this server: set GOOGLE_GENERATIVE_AI_API_KEY (see .env.example) and restart it.",
    });
  });
});

describe("keys never leave the server", () => {
  it("appear in no SSE record, stored record or console output, even when a 401 echoes them", async () => {
    const seen: string[] = [];
    for (const provider of PROVIDERS) {
      for (const id of ["scripted", "fail-401", "fail-500", "cut-halfway"]) {
        const { records } = await run(provider, id);
        seen.push(JSON.stringify(records));
        const transcriptId = records[0]?.kind === "run" ? records[0].transcriptId : "";
        const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
        seen.push(JSON.stringify(stored));
      }
    }
    // The keys did reach the fake provider, so the test is not vacuous…
    const sentHeaders = JSON.stringify(server.requests.map((request) => request.headers));
    for (const key of Object.values(KEYS)) expect(sentHeaders).toContain(key);
    // …and the 401 bodies echoed them back.
    const everything = [...seen, ...output].join("\n");
    expect(everything).toContain("[redacted]");
    for (const key of Object.values(KEYS)) expect(everything).not.toContain(key);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 1;
}
