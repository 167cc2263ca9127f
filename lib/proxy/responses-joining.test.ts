/**
 * A Responses API tool loop through the capture proxy is one transcript: continued by
 * `previous_response_id`, or by sending the whole history again (with or without the
 * reasoning items of earlier answers).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Transcript } from "../store/store";
import { Conversations, prefixHashes } from "./conversations";
import {
  answerText,
  callsOf,
  chunksOf,
  eventsOf,
  FIRST_ANSWER,
  proxyTo,
} from "./responses.testing";
import { responsesMessages } from "./responses-request";

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

  it("in a conversation the upstream holds (conversation), each call adding only its news, is one transcript a conversation", async () => {
    const { post, transcripts } = await proxyTo((_request, n) => ({
      sse: n <= 2 ? FIRST_ANSWER : answerText(`resp_${n}`, "It says alpha."),
    }));
    const ask = (conversation: unknown, input: unknown) =>
      post({ model: "m", instructions: "Read.", conversation, input, stream: true });
    await (await ask("conv_a", "what is in a.txt?")).text();
    // Another agent's conversation, started alike.
    await (await ask("conv_b", "what is in a.txt?")).text();
    const output = { type: "function_call_output", call_id: "call_1", output: "alpha" };
    await (await ask({ id: "conv_a" }, [output])).text();
    await (await ask("conv_a", "thanks")).text();
    const all = await transcripts();
    expect(all).toHaveLength(2);
    const [a] = all.filter((transcript) =>
      transcript.records.some((r) => r.kind === "request" && r.turn === 2),
    );
    if (a === undefined) throw new Error("conv_a was not one transcript");
    const [read] = callsOf(a);
    const events = eventsOf(a);
    expect(events.find((event) => event.type === "result")).toMatchObject({
      callId: read?.id,
      payload: { content: "alpha" },
    });
    expect(events.filter((event) => event.type === "user").map((event) => event.content)).toEqual([
      "what is in a.txt?",
      "thanks",
    ]);
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

  it("in an upstream's conversation, news start after what the call repeats of its last request, if it does", () => {
    const conversations = new Conversations(() => "id");
    const thread = { thread: "conv_a" };
    const system = { role: "system", content: "Read." };
    const user = { role: "user", content: "read a.txt" };
    const output = { role: "tool", tool_call_id: "call_1", content: "alpha" };
    const first = prefixHashes([system, user]);
    const { conversation } = conversations.join(undefined, first, undefined, thread);
    conversations.advance(conversation, first);
    // The AI SDK sends the user's words again with the tool's output: only the output is news.
    const again = prefixHashes([system, user, output]);
    expect(conversations.join(undefined, again, undefined, thread)).toMatchObject({
      conversation,
      from: 2,
    });
    conversations.advance(conversation, again);
    // Only the news: all of it.
    const thanks = prefixHashes([system, { role: "user", content: "thanks" }]);
    expect(conversations.join(undefined, thanks, undefined, thread)).toMatchObject({ from: 0 });
    conversations.advance(conversation, thanks);
    // The same words once more, after an answer, are said again; after none, a retry.
    expect(conversations.join(undefined, thanks, undefined, thread)).toMatchObject({ from: 0 });
    conversation.unanswered = true;
    expect(conversations.join(undefined, thanks, undefined, thread)).toMatchObject({ from: 2 });
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
