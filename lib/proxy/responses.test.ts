/**
 * The OpenAI Responses API (`POST /responses`) through the capture proxy: its request read as
 * messages, its streamed events (split anywhere) and whole response objects recorded as
 * chunks, native calls, usage and errors.
 */
import { describe, expect, it } from "vitest";
import type { MetricEvent } from "../protocol/events";
import type { Transcript } from "../store/store";
import { type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { type FakeAnswer, responsesSse } from "./fake-upstream.testing";
import {
  answerText,
  callsOf,
  chunksOf,
  errorsOf,
  eventsOf,
  FIRST_ANSWER,
  proxyTo,
} from "./responses.testing";
import { recordDeltas } from "./turn-recorder.testing";

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

  it("endless calls of no text do not grow the recording without bound", () => {
    const deltas: AnswerDelta[] = [];
    for (let index = 0; index < 10_000; index++)
      deltas.push({ kind: "tool", index, args: "" }, { kind: "response", id: `resp_${index}` });
    const { recorder, events } = recordDeltas(deltas, { maxChars: 1000 });
    // Not one entry per call: the record cap stops them.
    expect(recorder.nativeCallIds.length).toBeLessThan(100);
    expect(events.filter((event) => event.type === "error").map((event) => event.message)).toEqual([
      expect.stringContaining("native tool calls are over 1000 characters"),
    ]);
  });
});
