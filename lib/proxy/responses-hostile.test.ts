/**
 * The Responses API's edges: an upstream that sends what no real one does (ids that change
 * mid-stream or run to a megabyte: what the proxy keeps of them stays small), and what joining
 * leaves out of a history (a reasoning item, and nothing that only looks like one).
 */
import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { createCapture } from "./capture";
import { Conversations, MAX_ANSWER_ID_CHARS, prefixHashes } from "./conversations";
import { responsesSse } from "./fake-upstream.testing";
import { recordDeltas } from "./turn-recorder.testing";

const decodeAll = (sse: string): AnswerDelta[] => {
  const decoder = createAnswerDecoder("responses", true, 1 << 22);
  return [...decoder.push(new TextEncoder().encode(sse)), ...decoder.end()];
};

describe("Responses answer ids from a hostile upstream", () => {
  it("a stream is one response: an id changed mid-stream is not reported again", () => {
    const ids = Array.from({ length: 50 }, (_, n) => `resp_${n}`);
    const deltas = decodeAll(
      responsesSse([
        ...ids.map((id) => ({ type: "response.in_progress", response: { id } })),
        { type: "response.completed", response: { id: "resp_last" } },
      ]),
    );
    expect(deltas.filter((delta) => delta.kind === "response")).toEqual([
      { kind: "response", id: "resp_0" },
    ]);
  });

  it("an answer id longer than any provider's is not remembered; a call naming it starts anew", () => {
    const conversations = new Conversations(
      (() => {
        let n = 0;
        return () => `c${++n}`;
      })(),
    );
    const first = prefixHashes([{ role: "user", content: "hi" }]);
    const { conversation } = conversations.join(undefined, first);
    conversations.advance(conversation, first);
    const huge = `resp_${"x".repeat(1 << 20)}`;
    const fine = `resp_${"y".repeat(MAX_ANSWER_ID_CHARS - 5)}`;
    conversations.answered(conversation, huge);
    conversations.answered(conversation, fine);
    const next = prefixHashes([{ role: "user", content: "go on" }]);
    expect(conversations.join(undefined, next, undefined, { answer: fine })).toMatchObject({
      conversation,
      isNew: false,
    });
    expect(conversations.join(undefined, next, undefined, { answer: huge })).toMatchObject({
      isNew: true,
    });
  });
});

describe("what joining leaves out of a history", () => {
  it("a chat-completions assistant message with reasoning and tool calls but no content still counts", () => {
    const asked = (callId: string) =>
      prefixHashes([
        { role: "user", content: "read a.txt" },
        {
          role: "assistant",
          reasoning: "Read it.",
          tool_calls: [
            { id: callId, type: "function", function: { name: "read", arguments: "{}" } },
          ],
        },
      ]);
    expect(asked("call_a").at(-1)).not.toBe(asked("call_b").at(-1));
    // A Responses reasoning item, as read, still adds nothing.
    const [user] = asked("call_a");
    expect(
      prefixHashes([
        { role: "user", content: "read a.txt" },
        { role: "assistant", reasoning: "Hm." },
      ]),
    ).toEqual([user, user]);
  });
});

describe("native calls from a hostile upstream", () => {
  it("calls with long ids (an upstream's to choose) count them towards the record cap", () => {
    const id = "c".repeat(10_000);
    const deltas: AnswerDelta[] = Array.from({ length: 1000 }, (_, index) => ({
      kind: "tool" as const,
      index,
      id: `${id}${index}`,
      name: "f",
      args: "",
    }));
    const { recorder, events } = recordDeltas(deltas, { maxChars: 100_000 });
    expect(recorder.nativeCallIds.length).toBeLessThan(20);
    expect(events.filter((event) => event.type === "error").map((event) => event.message)).toEqual([
      expect.stringContaining("native tool calls are over 100000 characters"),
    ]);
  });

  it("a call's name and id repeated by its done event count once", () => {
    const call = { kind: "tool" as const, index: 0, id: "call_1", name: "n".repeat(600) };
    const { recorder, events } = recordDeltas(
      [
        { ...call, args: "" },
        { ...call, args: "{}", whole: true },
      ],
      { maxChars: 1000 },
    );
    expect(recorder.nativeCallIds).toEqual(["call_1"]);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
  });
});

describe("a request of more messages than any agent's history", () => {
  const begin = (count: number) => {
    const appended: TranscriptRecord[] = [];
    const capture = createCapture({
      sink: {
        startTurn() {},
        append: (_runId, records) => appended.push(...records),
        finishTurn: async () => {},
      },
      secrets: [],
      maxRecordChars: 1 << 20,
      maxMessages: 5,
    });
    const call = capture.begin({
      upstream: { name: "openai", format: "openai", baseURL: "http://127.0.0.1:9/v1", headers: {} },
      api: "responses",
      body: { model: "m", input: Array.from({ length: count }, (_, n) => `item ${n}`) },
      headers: new Headers(),
      dialect: "xml",
      stop() {},
    });
    call?.response(200, "application/json");
    call?.push(new TextEncoder().encode(JSON.stringify({ id: "resp_1", output: [] })));
    void call?.end();
    return appended;
  };

  it("is recorded without its messages, and says why; one within the limit, with them", () => {
    const over = begin(6);
    expect(over.find((record) => record.kind === "request")).toMatchObject({ messages: [] });
    expect(
      over.flatMap((record) =>
        record.kind === "event" && record.event.type === "error" ? [record.event.message] : [],
      ),
    ).toEqual([
      expect.stringMatching(/^The request has 6 messages, more than the 5 a recording reads/),
    ]);
    const within = begin(5);
    expect(within.find((record) => record.kind === "request")).toMatchObject({
      messages: Array.from({ length: 5 }, () => expect.objectContaining({ role: "user" })),
    });
  });
});

describe("an answer of several message items", () => {
  const first = {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "Looking." }],
  };
  const second = {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "Found it." }],
  };
  const textOf = (deltas: AnswerDelta[]) =>
    deltas.flatMap((delta) => (delta.kind === "text" ? [delta.text] : [])).join("");

  it("streamed, keeps a blank line between the items' text", () => {
    const deltas = decodeAll(
      responsesSse([
        { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "Look" },
        { type: "response.output_text.delta", output_index: 0, content_index: 0, delta: "ing." },
        { type: "response.output_item.added", output_index: 1, item: { type: "web_search_call" } },
        {
          type: "response.output_text.delta",
          output_index: 2,
          content_index: 0,
          delta: "Found it.",
        },
      ]),
    );
    expect(textOf(deltas)).toBe("Looking.\n\nFound it.");
  });

  it("whole, the same", () => {
    const decoder = createAnswerDecoder("responses", false, 1 << 20);
    const body = { id: "resp_1", output: [first, { type: "web_search_call" }, second] };
    decoder.push(new TextEncoder().encode(JSON.stringify(body)));
    expect(textOf(decoder.end())).toBe("Looking.\n\nFound it.");
  });
});
