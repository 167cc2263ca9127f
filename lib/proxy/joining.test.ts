/**
 * Which transcript a captured call joins when several conversations look alike: agents started
 * with the same messages (an eval running one task many times) and an agent retrying a request
 * that got no answer (an SDK's retry after a 429).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import type { Transcript } from "../store/store";
import { Conversations, prefixHashes } from "./conversations";
import { type ProxyServer, startProxyServer } from "./testing";

const servers: Server[] = [];
const proxies: ProxyServer[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  for (const server of servers.splice(0))
    await new Promise((resolve) => server.close(() => resolve(undefined)));
});

/** An upstream answering each request with `answer(body, n)` (n counts requests from 1). */
async function proxyTo(answer: (body: { messages: unknown[] }, n: number) => [number, unknown]) {
  let n = 0;
  const upstream = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const [status, body] = answer(JSON.parse(Buffer.concat(parts).toString()), ++n);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
  });
  servers.push(upstream);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  const proxy = await startProxyServer({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } });
  proxies.push(proxy);
  const post = async (messages: unknown[]) => {
    const response = await fetch(`${proxy.url}/proxy/openai/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages }),
    });
    const body = await response.json();
    await proxy.settled();
    return { status: response.status, body };
  };
  const transcripts = async (): Promise<Transcript[]> => {
    const list = await proxy.store.listTranscripts({ limit: 50 });
    const all = await Promise.all(list.map((summary) => proxy.store.getTranscript(summary.id)));
    return all.filter((transcript): transcript is Transcript => transcript !== null);
  };
  return { post, transcripts };
}

const eventsOf = (transcript: Transcript): ProtocolEvent[] =>
  transcript.records.flatMap((record) => (record.kind === "event" ? [record.event] : []));
const resultsOf = (transcript: Transcript) =>
  eventsOf(transcript).flatMap((event) =>
    event.type === "result" ? [String(event.payload.content)] : [],
  );

const TASK = [{ role: "user", content: "read the file" }];

describe("agents started with the same messages", () => {
  it("each continues its own transcript, told apart by the call ids it echoes back", async () => {
    // Each answer is a tool call with an id of its own, as providers give.
    const { post, transcripts } = await proxyTo((_body, n) => [
      200,
      {
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: `call_${n}`, type: "function", function: { name: "read", arguments: "{}" } },
              ],
            },
          },
        ],
      },
    ]);
    const agent = async () => {
      const { body } = await post(TASK);
      return body.choices[0].message;
    };
    const a = await agent();
    const b = await agent();
    const back = (message: { tool_calls: { id: string }[] }, content: string) => [
      ...TASK,
      message,
      { role: "tool", tool_call_id: message.tool_calls[0]?.id, content },
    ];
    // A goes on first: it must not land in B's transcript (the newest alike), nor B's in a new one.
    await post(back(a, "result of A"));
    await post(back(b, "result of B"));
    const all = await transcripts();
    expect(all).toHaveLength(2);
    const byResult = Object.fromEntries(all.map((t) => [resultsOf(t).join(), t]));
    expect(Object.keys(byResult).sort()).toEqual(["result of A", "result of B"]);
    for (const transcript of all) {
      const requests = transcript.records.flatMap((record) =>
        record.kind === "request" ? [record.turn] : [],
      );
      expect(requests).toEqual([0, 1]);
    }
  });

  it("without call ids, each continuation still takes a transcript of its own", () => {
    let n = 0;
    const conversations = new Conversations(() => `id-${++n}`);
    const first = prefixHashes(TASK);
    const a = conversations.join(undefined, first).conversation;
    conversations.advance(a, first);
    const b = conversations.join(undefined, first).conversation;
    conversations.advance(b, first);
    const next = (answer: string) =>
      prefixHashes([
        ...TASK,
        { role: "assistant", content: answer },
        { role: "user", content: "go on" },
      ]);
    const joinedA = conversations.join(undefined, next("A"));
    conversations.advance(joinedA.conversation, next("A"));
    const joinedB = conversations.join(undefined, next("B"));
    expect([joinedA.isNew, joinedB.isNew]).toEqual([false, false]);
    expect(new Set([joinedA.conversation, joinedB.conversation])).toEqual(new Set([a, b]));
  });
});

describe("a retried request", () => {
  it("joins the transcript of the call that got no answer, as its next turn", async () => {
    const { post, transcripts } = await proxyTo((_body, n) =>
      n === 1
        ? [429, { error: { message: "Rate limit reached", type: "rate_limit" } }]
        : [200, { choices: [{ index: 0, message: { role: "assistant", content: "Done." } }] }],
    );
    expect((await post(TASK)).status).toBe(429);
    expect((await post(TASK)).status).toBe(200);
    const all = await transcripts();
    expect(all).toHaveLength(1);
    const events = eventsOf(all[0] as Transcript);
    expect(events.filter((event) => event.type === "user")).toHaveLength(1);
    expect(events.find((event) => event.type === "error")).toMatchObject({
      turn: 0,
      code: "provider",
    });
    expect(events.find((event) => event.type === "respond")).toMatchObject({ turn: 1 });
  });

  it("the same request after an answered one is another agent's: a new transcript", async () => {
    const { post, transcripts } = await proxyTo(() => [
      200,
      { choices: [{ index: 0, message: { role: "assistant", content: "Done." } }] },
    ]);
    await post(TASK);
    await post(TASK);
    expect(await transcripts()).toHaveLength(2);
  });
});

describe("an agent sending an earlier message again, changed in what it does not say", () => {
  it("continues its transcript when it moved its cache_control breakpoint (Anthropic)", () => {
    let n = 0;
    const conversations = new Conversations(() => `id-${++n}`);
    const cached = (text: string) => ({
      role: "user",
      content: [{ type: "text", text, cache_control: { type: "ephemeral" } }],
    });
    // Sent again as the string it was before the breakpoint made it a part.
    const plain = (text: string) => ({ role: "user", content: text });
    const first = prefixHashes([cached("read the file")]);
    const started = conversations.join(undefined, first).conversation;
    conversations.advance(started, first);
    // The next call: the breakpoint moved to the newest message.
    const next = prefixHashes([
      plain("read the file"),
      { role: "assistant", content: [{ type: "text", text: "Reading." }] },
      cached("go on"),
    ]);
    expect(conversations.join(undefined, next)).toMatchObject({
      conversation: started,
      isNew: false,
      from: 1,
    });
  });

  it("continues it when the agent leaves an earlier answer's thinking out", () => {
    let n = 0;
    const conversations = new Conversations(() => `id-${++n}`);
    const answer = (thinking: boolean) => ({
      role: "assistant",
      content: [
        ...(thinking ? [{ type: "thinking", thinking: "Hmm.", signature: "sig" }] : []),
        { type: "text", text: "Here it is." },
      ],
    });
    const first = prefixHashes([
      { role: "user", content: "read the file" },
      answer(true),
      { role: "user", content: "thanks, now the next" },
    ]);
    const started = conversations.join(undefined, first).conversation;
    conversations.advance(started, first);
    const next = prefixHashes([
      { role: "user", content: "read the file" },
      answer(false),
      { role: "user", content: "thanks, now the next" },
      { role: "assistant", content: "Done." },
      { role: "user", content: "and the last" },
    ]);
    expect(conversations.join(undefined, next)).toMatchObject({ conversation: started, from: 3 });
  });
});
