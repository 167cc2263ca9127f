/**
 * Test helpers of the capture proxy's Responses API recording: the proxy in front of a fake
 * upstream (closed after each test), the transcripts it made, and Responses answers.
 */
import { afterEach } from "vitest";
import type { CallEvent, ErrorEvent, ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import type { Transcript } from "../store/store";
import {
  type FakeAnswer,
  type FakeUpstream,
  responsesSse,
  type SeenRequest,
  startFakeUpstream,
} from "./fake-upstream.testing";
import { type ProxyServer, startProxyServer } from "./testing";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of opened.splice(0).reverse()) await server.close();
});

export async function proxyTo(answer: (request: SeenRequest, n: number) => FakeAnswer) {
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

export const eventsOf = (transcript: Transcript): ProtocolEvent[] =>
  mergePieces(
    transcript.records.flatMap((record) => (record.kind === "event" ? [record.event] : [])),
  );
export const chunksOf = (transcript: Transcript, turn: number) =>
  transcript.records
    .flatMap((record) => (record.kind === "chunk" && record.turn === turn ? [record.text] : []))
    .join("");
export const errorsOf = (transcript: Transcript) =>
  eventsOf(transcript).filter((event): event is ErrorEvent => event.type === "error");
export const callsOf = (transcript: Transcript) =>
  eventsOf(transcript).flatMap((event) =>
    event.type === "call" ? [(event as CallEvent).call] : [],
  );

/** A first turn: reasoning, a sentence, a function call, events of no interest, usage. */
export const FIRST_ANSWER = responsesSse([
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

export const answerText = (id: string, text: string) =>
  responsesSse([
    { type: "response.created", response: { id, status: "in_progress" } },
    { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: text },
    {
      type: "response.completed",
      response: { id, status: "completed", usage: { input_tokens: 120, output_tokens: 6 } },
    },
  ]);
