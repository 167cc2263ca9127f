/**
 * Native tool calls (OpenAI `tool_calls`, Anthropic `tool_use`) in a captured answer: decoded
 * from the stream or the whole body, written out in the transcript's dialect, parsed into
 * `call` events, and answered by the results the agent sends back naming their ids.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { CallEvent, ErrorEvent, ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import { type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { DETECTABLE } from "./dialect-choice";
import { readSentBack, sentBackEvents } from "./sent-back";
import { startProxyServer } from "./testing";
import { recordDeltas } from "./turn-recorder.testing";

const bytes = (value: string) => new TextEncoder().encode(value);
const sse = (frames: unknown[]) =>
  frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("");

function decodeSplit(format: "openai" | "anthropic", body: string, step = 5): AnswerDelta[] {
  const encoded = bytes(body);
  const decoder = createAnswerDecoder(format, true, 100_000);
  const deltas: AnswerDelta[] = [];
  for (let at = 0; at < encoded.length; at += step)
    deltas.push(...decoder.push(encoded.slice(at, at + step)));
  return [...deltas, ...decoder.end()];
}

function record(deltas: AnswerDelta[], dialect: (typeof DETECTABLE)[number], maxChars = 10_000) {
  const { events, raw, recorder } = recordDeltas(deltas, { dialect, maxChars });
  return { events, raw, ids: recorder.nativeCallIds };
}

const calls = (events: readonly ProtocolEvent[]) =>
  events.filter((event): event is CallEvent => event.type === "call").map((event) => event.call);

const OPENAI_STREAM = `${sse([
  { choices: [{ delta: { role: "assistant", content: "Reading both." } }] },
  {
    choices: [
      {
        delta: {
          tool_calls: [
            {
              index: 0,
              id: "call_a",
              type: "function",
              function: { name: "read", arguments: "" },
            },
          ],
        },
      },
    ],
  },
  { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"file":' } }] } }] },
  {
    choices: [
      {
        delta: {
          tool_calls: [
            {
              index: 1,
              id: "call_b",
              type: "function",
              function: { name: "list", arguments: '{"dir"' },
            },
          ],
        },
      },
    ],
  },
  { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] } }] },
  { choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: ':"."}' } }] } }] },
  { choices: [{ delta: {}, finish_reason: "tool_calls" }] },
])}data: [DONE]\n\n`;

const ANTHROPIC_STREAM = sse([
  { type: "message_start", message: { id: "m" } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Reading." } },
  { type: "content_block_stop", index: 0 },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "read", input: {} },
  },
  {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"fi' },
  },
  {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: 'le":"a.txt"}' },
  },
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "tool_use" } },
]);

describe("native tool calls", () => {
  it("OpenAI streamed tool_calls, pieces interleaved and split anywhere, become call events in every dialect", () => {
    for (const step of [1, 7, 64]) {
      const deltas = decodeSplit("openai", OPENAI_STREAM, step);
      for (const dialect of DETECTABLE) {
        const { events, raw, ids } = record(deltas, dialect);
        expect(calls(events).map(({ name, args }) => ({ name, args }))).toEqual([
          { name: "read", args: { file: "a.txt" } },
          { name: "list", args: { dir: "." } },
        ]);
        expect(raw.startsWith("Reading both.")).toBe(
          dialect !== "action" || raw.startsWith("Reading both."),
        );
        expect(ids).toEqual(["call_a", "call_b"]);
        expect(
          events.filter((event) => event.type === "error" && event.code !== "stray_text"),
        ).toEqual([]);
      }
    }
  });

  it("Anthropic streamed tool_use blocks and whole JSON answers of both formats", () => {
    const streamed = record(decodeSplit("anthropic", ANTHROPIC_STREAM, 3), "hermes");
    expect(calls(streamed.events)).toMatchObject([{ name: "read", args: { file: "a.txt" } }]);
    expect(streamed.raw).toBe(
      // Written as the playground writes it (`nativeCallsText` in lib/protocol/written-back.ts).
      'Reading.\n<tool_call>\n{"name":"read","arguments":{"file":"a.txt"}}\n</tool_call>',
    );

    const whole = (format: "openai" | "anthropic", body: unknown) => {
      const decoder = createAnswerDecoder(format, false, 100_000);
      decoder.push(bytes(JSON.stringify(body)));
      return record(decoder.end(), "xml");
    };
    const openai = whole("openai", {
      choices: [
        {
          message: {
            content: null,
            tool_calls: [
              { id: "c1", type: "function", function: { name: "read", arguments: '{"file":"b"}' } },
            ],
          },
        },
      ],
    });
    expect(calls(openai.events)).toMatchObject([{ name: "read", args: { file: "b" } }]);
    expect(openai.raw).toBe('<execute>\n[\n  {"name":"read","args":{"file":"b"}}\n]\n</execute>');
    const anthropic = whole("anthropic", {
      content: [
        { type: "text", text: "Ok." },
        { type: "tool_use", id: "t1", name: "list", input: { dir: "x" } },
      ],
    });
    expect(calls(anthropic.events)).toMatchObject([{ name: "list", args: { dir: "x" } }]);
    expect(anthropic.ids).toEqual(["t1"]);
  });

  it("broken arguments are the parser's error, carrying the text; nothing is re-encoded", () => {
    const deltas: AnswerDelta[] = [
      { kind: "tool", index: 0, id: "c", name: "read", args: '{"file": "a.txt"' },
    ];
    const { events, raw } = record(deltas, "hermes");
    expect(calls(events)).toEqual([]);
    const errors = events.filter((event): event is ErrorEvent => event.type === "error");
    expect(errors.map((error) => error.code)).toContain("invalid_json");
    expect(raw).toContain('{"file": "a.txt"');
  });

  it("native calls past the recording cap are dropped with an error, memory bounded", () => {
    const deltas: AnswerDelta[] = Array.from({ length: 50 }, () => ({
      kind: "tool" as const,
      index: 0,
      args: "x".repeat(100),
    }));
    const { events, raw } = record(
      [{ kind: "tool", index: 0, name: "w", args: "" }, ...deltas],
      "xml",
      1000,
    );
    expect(raw).toBe("");
    expect(
      events
        .filter((event) => event.type === "error")
        .map((event) => (event as ErrorEvent).message)
        .join(),
    ).toContain("native tool calls are over 1000 characters");
  });

  it("a key in a native call's arguments is redacted", () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    const deltas: AnswerDelta[] = [
      { kind: "tool", index: 0, id: "c", name: "post", args: `{"auth":"${key.slice(0, 12)}` },
      { kind: "tool", index: 0, args: `${key.slice(12)}"}` },
    ];
    const { raw, events } = record(deltas, "xml");
    expect(raw).not.toContain("abcdefghijklmnop");
    expect(JSON.stringify(events)).not.toContain("abcdefghijklmnop");
  });

  it("results sent back with tool_call_id / tool_use_id answer the call they name, in any order", () => {
    const turnCalls = [
      { id: "t0-c1", name: "respond_in_text", args: {} },
      { id: "t0-c2", name: "read", args: { file: "a" } },
      { id: "t0-c3", name: "list", args: {} },
    ];
    const sent = readSentBack([
      { role: "tool", tool_call_id: "call_b", content: "listing" },
      { role: "tool", tool_call_id: "call_a", content: "text of a" },
    ]);
    let id = 0;
    const events = sentBackEvents(
      sent,
      turnCalls,
      0,
      () => 0,
      () => `r${++id}`,
      ["call_a", "call_b"],
    );
    expect(
      events.map((event) => (event.type === "result" ? [event.callId, event.payload.content] : [])),
    ).toEqual([
      ["t0-c3", "listing"],
      ["t0-c2", "text of a"],
    ]);
    const anthropic = readSentBack([
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x", is_error: true }],
      },
    ]);
    const [result] = sentBackEvents(
      anthropic,
      turnCalls.slice(0, 2),
      0,
      () => 0,
      () => "r",
      ["toolu_1"],
    );
    expect(result).toMatchObject({ callId: "t0-c2", payload: { status: "failure" } });
  });
});

describe("native tool calls through the proxy", () => {
  it("an agent's tool_calls show as calls, and the results it sends back sit under them", async () => {
    const upstream = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(OPENAI_STREAM);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    const proxy = await startProxyServer({
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    try {
      const post = (messages: unknown[]) =>
        fetch(`${proxy.url}/proxy/openai/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-wirescope-session": "native" },
          body: JSON.stringify({ model: "m", stream: true, messages }),
        }).then((response) => response.text());
      const first = [{ role: "user", content: "read a and list ." }];
      expect(await post(first)).toBe(OPENAI_STREAM);
      await post([
        ...first,
        { role: "assistant", tool_calls: [{ id: "call_a" }, { id: "call_b" }] },
        { role: "tool", tool_call_id: "call_b", content: "b.txt" },
        { role: "tool", tool_call_id: "call_a", content: "alpha" },
      ]);
      await proxy.settled();
      const [summary] = await proxy.store.listTranscripts({ limit: 1 });
      const transcript = await proxy.store.getTranscript(summary?.id ?? "");
      const events = mergePieces(
        (transcript?.records ?? []).flatMap((r) => (r.kind === "event" ? [r.event] : [])),
      );
      const [read, list] = calls(events);
      expect([read?.name, list?.name]).toEqual(["read", "list"]);
      const results = events.flatMap((event) => (event.type === "result" ? [event] : []));
      expect(results.map((result) => [result.callId, result.payload.content])).toEqual([
        [list?.id, "b.txt"],
        [read?.id, "alpha"],
      ]);
    } finally {
      await proxy.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
