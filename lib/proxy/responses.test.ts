/**
 * The OpenAI Responses API (`POST /responses`) through the capture proxy: its request read as
 * messages, its streamed events and whole response objects recorded as chunks, native calls,
 * usage and errors, and a tool loop continued by `previous_response_id` (or by sending the
 * whole history) joined into one transcript.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CallEvent, ErrorEvent, MetricEvent, ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import type { Transcript } from "../store/store";
import { type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { Conversations, prefixHashes } from "./conversations";
import {
  type FakeAnswer,
  type FakeUpstream,
  responsesSse,
  type SeenRequest,
  startFakeUpstream,
} from "./fake-upstream.testing";
import { responsesMessages } from "./responses-request";
import { type ProxyServer, startProxyServer } from "./testing";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of opened.splice(0).reverse()) await server.close();
});

async function proxyTo(answer: (request: SeenRequest, n: number) => FakeAnswer) {
  const upstream: FakeUpstream = await startFakeUpstream(answer);
  const proxy: ProxyServer = await startProxyServer({
    env: { OPENAI_BASE_URL: upstream.baseURL, OPENAI_API_KEY: "sk-configured-0123456789" },
  });
  opened.push(upstream, proxy);
  const post = (body: unknown, dialect = "xml") =>
    fetch(`${proxy.url}/proxy/openai/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-wirescope-dialect": dialect },
      body: JSON.stringify(body),
    });
  const transcripts = async (): Promise<Transcript[]> => {
    await proxy.settled();
    const list = await proxy.store.listTranscripts({ limit: 50 });
    const all = await Promise.all(list.map((summary) => proxy.store.getTranscript(summary.id)));
    return all.filter((transcript): transcript is Transcript => transcript !== null);
  };
  return { upstream, proxy, post, transcripts };
}

const eventsOf = (transcript: Transcript): ProtocolEvent[] =>
  mergePieces(
    transcript.records.flatMap((record) => (record.kind === "event" ? [record.event] : [])),
  );
const chunksOf = (transcript: Transcript, turn: number) =>
  transcript.records
    .flatMap((record) => (record.kind === "chunk" && record.turn === turn ? [record.text] : []))
    .join("");
const errorsOf = (transcript: Transcript) =>
  eventsOf(transcript).filter((event): event is ErrorEvent => event.type === "error");
const callsOf = (transcript: Transcript) =>
  eventsOf(transcript).flatMap((event) =>
    event.type === "call" ? [(event as CallEvent).call] : [],
  );

/** A first turn: reasoning, a sentence, a function call, events of no interest, usage. */
const FIRST_ANSWER = responsesSse([
  { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
  { type: "response.in_progress", response: { id: "resp_1", status: "in_progress" } },
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "reasoning", id: "rs_1", summary: [] },
  },
  { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0 },
  { type: "response.reasoning_summary_text.delta", output_index: 0, delta: "Need the " },
  { type: "response.reasoning_summary_text.delta", output_index: 0, delta: "file." },
  {
    type: "response.output_item.added",
    output_index: 1,
    item: { type: "message", id: "msg_1", role: "assistant", content: [] },
  },
  { type: "response.content_part.added", output_index: 1, content_index: 0 },
  { type: "response.output_text.delta", output_index: 1, content_index: 0, delta: "Reading " },
  { type: "response.output_text.delta", output_index: 1, content_index: 0, delta: "it." },
  { type: "response.output_text.done", output_index: 1, text: "Reading it." },
  { type: "response.a_future_event", output_index: 1, whatever: { nested: true } },
  {
    type: "response.output_item.added",
    output_index: 2,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" },
  },
  { type: "response.function_call_arguments.delta", output_index: 2, delta: '{"file":' },
  { type: "response.function_call_arguments.delta", output_index: 2, delta: '"a.txt"}' },
  { type: "response.function_call_arguments.done", output_index: 2, arguments: '{"file":"a.txt"}' },
  {
    type: "response.output_item.done",
    output_index: 2,
    item: {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "read",
      arguments: '{"file":"a.txt"}',
    },
  },
  {
    type: "response.completed",
    response: {
      id: "resp_1",
      status: "completed",
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 40 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 130,
      },
    },
  },
]);

const answerText = (id: string, text: string) =>
  responsesSse([
    { type: "response.created", response: { id, status: "in_progress" } },
    { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: text },
    {
      type: "response.completed",
      response: { id, status: "completed", usage: { input_tokens: 120, output_tokens: 6 } },
    },
  ]);

describe("Responses API answers", () => {
  it("a stream read one byte at a time gives the same deltas as read whole", () => {
    const decode = (step: number) => {
      const bytes = new TextEncoder().encode(FIRST_ANSWER);
      const decoder = createAnswerDecoder("responses", true, 1 << 20);
      const deltas: AnswerDelta[] = [];
      for (let at = 0; at < bytes.length; at += step)
        deltas.push(...decoder.push(bytes.slice(at, at + step)));
      return [...deltas, ...decoder.end()];
    };
    const whole = decode(Number.MAX_SAFE_INTEGER);
    expect(decode(1)).toEqual(whole);
    expect(whole).toEqual([
      { kind: "response", id: "resp_1" },
      { kind: "think", text: "Need the " },
      { kind: "think", text: "file." },
      { kind: "text", text: "Reading " },
      { kind: "text", text: "it." },
      { kind: "tool", index: 2, id: "call_1", name: "read", args: "" },
      { kind: "tool", index: 2, args: '{"file":' },
      { kind: "tool", index: 2, args: '"a.txt"}' },
      { kind: "tool", index: 2, args: '{"file":"a.txt"}', whole: true },
      { kind: "tool", index: 2, id: "call_1", name: "read", args: '{"file":"a.txt"}', whole: true },
      { kind: "usage", input: 100, output: 30, cacheRead: 40 },
    ]);
  });

  it("a streamed turn, sent a byte at a time, is recorded as text, think text, a call and a metric", async () => {
    const { post, transcripts } = await proxyTo(() => ({ sse: FIRST_ANSWER, step: 1 }));
    const response = await post({
      model: "gpt-test",
      instructions: "You read files.",
      input: "what is in a.txt?",
      stream: true,
      tools: [{ type: "function", name: "read", parameters: { type: "object" } }],
    });
    // The agent gets the upstream's bytes unchanged.
    expect(await response.text()).toBe(FIRST_ANSWER);
    const [transcript] = await transcripts();
    if (transcript === undefined) throw new Error("nothing was captured");
    expect(transcript.meta).toMatchObject({ source: "capture", system: "You read files." });
    const [request] = transcript.records.filter((record) => record.kind === "request");
    expect(request).toMatchObject({
      model: "gpt-test",
      messages: [
        { role: "system", content: "You read files." },
        { role: "user", content: "what is in a.txt?" },
      ],
      settings: { stream: true, tools: [{ name: "read" }], capture: { dialect: "xml" } },
    });
    expect(chunksOf(transcript, 0)).toContain("Need the file.");
    expect(chunksOf(transcript, 0)).toContain("Reading it.");
    // The arguments once, though streamed and then repeated whole.
    expect(callsOf(transcript)).toEqual([
      expect.objectContaining({ name: "read", args: { file: "a.txt" } }),
    ]);
    const metric = eventsOf(transcript).find(
      (event): event is MetricEvent => event.type === "metric",
    );
    expect(metric?.step).toMatchObject({ input: 100, output: 30, cacheRead: 40 });
    expect(metric?.tokenSource).toBe("provider");
    expect(errorsOf(transcript)).toEqual([]);
  });

  it("a whole response object is recorded the same way", async () => {
    const { post, transcripts } = await proxyTo(() => ({
      json: {
        id: "resp_w",
        object: "response",
        status: "completed",
        output: [
          { type: "reasoning", id: "rs", summary: [{ type: "summary_text", text: "Look first." }] },
          {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: "Listing.", annotations: [] }],
          },
          { type: "function_call", call_id: "call_w", name: "list", arguments: '{"dir":"."}' },
        ],
        usage: { input_tokens: 9, output_tokens: 4 },
      },
    }));
    await (await post({ model: "m", input: [{ role: "user", content: "list ." }] })).json();
    const [transcript] = await transcripts();
    if (transcript === undefined) throw new Error("nothing was captured");
    expect(chunksOf(transcript, 0)).toMatch(/Look first\.[\s\S]*Listing\./);
    expect(callsOf(transcript)).toEqual([
      expect.objectContaining({ name: "list", args: { dir: "." } }),
    ]);
    expect(eventsOf(transcript).some((event) => event.type === "metric")).toBe(true);
  });

  it("response.failed, an error event and a stream cut mid-way become error records; the proxy goes on", async () => {
    const created = { type: "response.created", response: { id: "resp_f", status: "in_progress" } };
    const partial = {
      type: "response.output_text.delta",
      output_index: 0,
      content_index: 0,
      delta: "Partial",
    };
    const answers: FakeAnswer[] = [
      {
        sse: responsesSse([
          created,
          partial,
          {
            type: "response.failed",
            response: {
              id: "resp_f",
              status: "failed",
              error: { code: "server_error", message: "The model crashed." },
            },
          },
        ]),
      },
      {
        sse: responsesSse([
          created,
          { type: "error", code: "rate_limit_exceeded", message: "Slow down.", param: null },
        ]),
      },
      // Half an event, then the connection drops.
      { sse: responsesSse([created, partial, partial]), cutAfter: 200 },
      { sse: `${responsesSse([created])}event: response.output_text.delta\ndata: {not json\n\n` },
      { sse: answerText("resp_ok", "Fine.") },
    ];
    const { post, transcripts } = await proxyTo((_request, n) => answers[n - 1] as FakeAnswer);
    const ask = (content: string) =>
      post({ model: "m", stream: true, input: [{ role: "user", content }] });
    await (await ask("one")).text();
    await (await ask("two")).text();
    await expect((await ask("three")).text()).rejects.toThrow();
    await (await ask("four")).text();
    expect(await (await ask("five")).text()).toContain("Fine.");
    const byTitle = Object.fromEntries((await transcripts()).map((t) => [t.meta.title, t]));
    const messages = (title: string) =>
      errorsOf(byTitle[title] as Transcript).map((error) => `${error.code}: ${error.message}`);
    expect(messages("one")).toEqual([
      "provider: The upstream sent an error (server_error): The model crashed.",
    ]);
    expect(chunksOf(byTitle.one as Transcript, 0)).toBe("Partial");
    expect(messages("two")).toEqual([
      "provider: The upstream sent an error (rate_limit_exceeded): Slow down.",
    ]);
    expect(messages("three")).toEqual([expect.stringMatching(/^provider: .*broke off/)]);
    expect(messages("four")).toEqual([
      expect.stringMatching(/^provider: An SSE frame is not JSON/),
    ]);
    expect(messages("five")).toEqual([]);
  });
});

describe("a Responses tool loop", () => {
  it("continued by previous_response_id is one transcript, each result under its call", async () => {
    const { post, transcripts, upstream } = await proxyTo((_request, n) => ({
      sse: n === 1 ? FIRST_ANSWER : answerText(`resp_${n}`, n === 2 ? "It says alpha." : "Bye."),
    }));
    const tools = [{ type: "function", name: "read", parameters: { type: "object" } }];
    await (
      await post({
        model: "m",
        instructions: "Read.",
        input: "what is in a.txt?",
        tools,
        stream: true,
      })
    ).text();
    await (
      await post({
        model: "m",
        instructions: "Read.",
        previous_response_id: "resp_1",
        input: [{ type: "function_call_output", call_id: "call_1", output: "alpha" }],
        tools,
        stream: true,
      })
    ).text();
    await (
      await post({
        model: "m",
        instructions: "Read.",
        previous_response_id: "resp_2",
        input: [{ role: "user", content: [{ type: "input_text", text: "thanks" }] }],
        stream: true,
      })
    ).text();
    expect(upstream.seen).toHaveLength(3);
    const all = await transcripts();
    expect(all).toHaveLength(1);
    const [transcript] = all as [Transcript];
    const requests = transcript.records.flatMap((record) =>
      record.kind === "request" ? [record] : [],
    );
    expect(requests.map((request) => request.turn)).toEqual([0, 1, 2]);
    expect(requests[1]?.settings).toMatchObject({ previous_response_id: "resp_1" });
    const [read] = callsOf(transcript);
    const events = eventsOf(transcript);
    const result = events.find((event) => event.type === "result");
    expect(result).toMatchObject({ callId: read?.id, payload: { tool: "read", content: "alpha" } });
    expect(events.filter((event) => event.type === "user").map((event) => event.content)).toEqual([
      "what is in a.txt?",
      "thanks",
    ]);
    expect(chunksOf(transcript, 1)).toBe("It says alpha.");
  });

  it("sent whole each time (the AI SDK's OpenAI provider, not streaming) is one transcript", async () => {
    const { transcripts, upstream, proxy } = await proxyTo((_request, n) => ({
      json:
        n === 1
          ? {
              id: "resp_a",
              object: "response",
              created_at: 1,
              model: "m",
              status: "completed",
              output: [
                {
                  type: "function_call",
                  id: "fc_a",
                  call_id: "call_a",
                  name: "read",
                  arguments: '{"file":"a.txt"}',
                  status: "completed",
                },
              ],
              usage: { input_tokens: 10, output_tokens: 5 },
            }
          : {
              id: "resp_b",
              object: "response",
              created_at: 2,
              model: "m",
              status: "completed",
              output: [
                {
                  type: "message",
                  id: "msg_b",
                  role: "assistant",
                  status: "completed",
                  content: [{ type: "output_text", text: "It says alpha.", annotations: [] }],
                },
              ],
              usage: { input_tokens: 20, output_tokens: 4 },
            },
    }));
    const openai = createOpenAI({
      baseURL: `${proxy.url}/proxy/openai/v1`,
      apiKey: "sk-agent-0123456789",
    });
    const result = await generateText({
      model: openai.responses("m"),
      system: "You read files.",
      prompt: "what is in a.txt?",
      tools: {
        read: tool({
          inputSchema: z.object({ file: z.string() }),
          execute: async () => "alpha",
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("It says alpha.");
    expect(upstream.seen.map((request) => request.path)).toEqual([
      "/v1/responses",
      "/v1/responses",
    ]);
    const all = await transcripts();
    expect(all).toHaveLength(1);
    const [transcript] = all as [Transcript];
    const [read] = callsOf(transcript);
    expect(read).toMatchObject({ name: "read", args: { file: "a.txt" } });
    const results = eventsOf(transcript).filter((event) => event.type === "result");
    expect(results).toEqual([expect.objectContaining({ callId: read?.id })]);
    expect(chunksOf(transcript, 1)).toBe("It says alpha.");
  });

  it("continues its transcript when the agent leaves earlier reasoning items out", () => {
    const user = { role: "user", content: "read a.txt" };
    const reasoning = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Hm." }],
    };
    const call = { type: "function_call", call_id: "call_1", name: "read", arguments: "{}" };
    const output = { type: "function_call_output", call_id: "call_1", output: "alpha" };
    const answer = { role: "assistant", content: [{ type: "output_text", text: "alpha" }] };
    const first = prefixHashes(responsesMessages(undefined, [user, reasoning, call, output]) ?? []);
    const later = prefixHashes(
      responsesMessages(undefined, [user, call, output, answer, { role: "user", content: "ok" }]) ??
        [],
    );
    const conversations = new Conversations(() => "id");
    const { conversation } = conversations.join(undefined, first);
    conversations.advance(conversation, first);
    // The news start after the tool output: the answer and the user's "ok".
    expect(conversations.join(undefined, later)).toMatchObject({
      conversation,
      isNew: false,
      from: 3,
    });
  });
});
