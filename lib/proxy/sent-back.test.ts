import { describe, expect, it } from "vitest";
import { encodeResults } from "../protocol/encode";
import { Conversations, prefixHashes } from "./conversations";
import { headerSecrets, redactValue } from "./redaction";
import { readSentBack, resultsInText, sentBackEvents } from "./sent-back";

const payload = {
  tool: "list",
  status: "success" as const,
  content: ["a.md"],
  outcome: "",
  durationMs: 1,
};

describe("what the agent sends back", () => {
  it("reads each dialect's results message, written by the encoder", () => {
    for (const dialect of ["xml", "delimiter", "action"] as const) {
      const message = encodeResults(dialect, [{ callId: "c1", payload }]);
      expect(resultsInText(message)).toEqual([
        { tool: "list", status: "success", content: ["a.md"] },
      ]);
    }
    expect(
      resultsInText(
        '<tool_response>{"name": "list", "content": "a.md"}</tool_response>\n<tool_response>{"name": "read", "content": "x"}</tool_response>',
      ),
    ).toEqual([
      { tool: "list", status: "success", content: "a.md" },
      { tool: "read", status: "success", content: "x" },
    ]);
    expect(resultsInText("just words")).toBeUndefined();
  });

  it("reads native tool messages of both formats and user words", () => {
    const sent = readSentBack([
      { role: "assistant", content: "…" },
      { role: "tool", tool_call_id: "x", content: '{"files":[]}' },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "y", content: "failed", is_error: true },
          { type: "text", text: "and now read it" },
        ],
      },
    ]);
    expect(sent).toEqual({
      results: [
        { ref: "x", status: "success", content: { files: [] } },
        { ref: "y", status: "failure", content: "failed" },
      ],
      user: ["and now read it"],
    });
  });

  it("puts the k-th result under the k-th call of the last turn", () => {
    let id = 0;
    const events = sentBackEvents(
      {
        results: [
          { status: "success", content: 1 },
          { tool: "x", status: "failure", content: 2 },
        ],
        user: ["go on"],
      },
      [{ id: "t0-2", name: "calculate", args: {} }],
      0,
      () => 5,
      () => `r${++id}`,
    );
    expect(events).toEqual([
      {
        type: "result",
        id: "r1",
        timestamp: 5,
        callId: "t0-2",
        turn: 0,
        payload: {
          tool: "calculate",
          status: "success",
          content: 1,
          outcome: "Sent back by the agent",
          durationMs: 0,
        },
      },
      {
        type: "result",
        id: "r2",
        timestamp: 5,
        callId: "unmatched-2",
        turn: 0,
        payload: {
          tool: "x",
          status: "failure",
          content: 2,
          outcome: "Sent back by the agent for no call seen",
          durationMs: 0,
        },
      },
      { type: "user", id: "r3", timestamp: 5, content: "go on" },
    ]);
  });

  it("puts results naming one upstream id twice under the two calls that had it, in order", () => {
    let id = 0;
    const events = sentBackEvents(
      {
        results: [
          { ref: "call_0", status: "success", content: "second's" },
          { ref: "call_0", status: "success", content: "third's" },
          { ref: "call_9", status: "success", content: "first's" },
        ],
        user: [],
      },
      [
        { id: "call_9", name: "list", args: {} },
        { id: "call_0", name: "read", args: {} },
        { id: "call_0-2", name: "read", args: {} },
      ],
      0,
      () => 5,
      () => `r${++id}`,
      ["call_9", "call_0", "call_0"],
    );
    expect(events.map((event) => (event.type === "result" ? event.callId : ""))).toEqual([
      "call_0",
      "call_0-2",
      "call_9",
    ]);
  });
});

describe("conversations", () => {
  const user = (content: string) => ({ role: "user", content });
  const assistant = (content: string) => ({ role: "assistant", content });

  it("joins a call whose messages extend the last one's, and not a different one", () => {
    let n = 0;
    const conversations = new Conversations(() => `id-${++n}`);
    const first = [user("hi")];
    const a = conversations.join(undefined, prefixHashes(first));
    conversations.advance(a.conversation, prefixHashes(first));
    const second = [...first, assistant("hello"), user("more")];
    const b = conversations.join(undefined, prefixHashes(second));
    expect(b).toMatchObject({ isNew: false, from: 1 });
    expect(b.conversation).toBe(a.conversation);
    conversations.advance(b.conversation, prefixHashes(second));
    // The first request again is not an extension of the latest: a new conversation.
    expect(conversations.join(undefined, prefixHashes([user("hi")])).isNew).toBe(true);
    expect(conversations.join(undefined, prefixHashes([user("other"), user("x")])).isNew).toBe(
      true,
    );
  });

  it("forgets the least recently used beyond its bound", () => {
    let n = 0;
    const conversations = new Conversations(() => `id-${++n}`, 2);
    for (const word of ["a", "b", "c"]) {
      const hashes = prefixHashes([user(word)]);
      conversations.advance(conversations.join(undefined, hashes).conversation, hashes);
    }
    expect(conversations.join(undefined, prefixHashes([user("a"), user("next")])).isNew).toBe(true);
    expect(conversations.join(undefined, prefixHashes([user("c"), user("next")])).isNew).toBe(
      false,
    );
  });
});

describe("redaction", () => {
  it("takes every header value but harmless ones as a secret, scheme stripped", () => {
    const secrets = headerSecrets(
      new Headers({
        authorization: "Bearer abcdefgh12345",
        "content-type": "application/json",
        cookie: "a=cookievalue1; b=x",
      }),
    );
    expect(secrets).toContain("abcdefgh12345");
    expect(secrets).toContain("cookievalue1");
    expect(secrets).not.toContain("application/json");
    expect(redactValue({ text: ["key abcdefgh12345 here"], n: 1 }, secrets)).toEqual({
      text: ["key [redacted] here"],
      n: 1,
    });
  });

  it("redacts a credential-named field of a body, which no text pattern sees", () => {
    // An agent's metadata, and a tool call's input sent back in the history (Anthropic tool_use).
    const body = {
      metadata: { api_key: "zz11yy22xx33ww44vv55", team: "blue" },
      messages: [
        { role: "assistant", content: [{ type: "tool_use", input: { Password: "hunter2-9" } }] },
      ],
      // A tool's schema names the field without holding a value: it stays.
      tools: [{ input_schema: { properties: { api_key: { type: "string" } } } }],
      max_tokens: 100,
    };
    expect(redactValue(body, [])).toEqual({
      metadata: { api_key: "[redacted]", team: "blue" },
      messages: [
        { role: "assistant", content: [{ type: "tool_use", input: { Password: "[redacted]" } }] },
      ],
      tools: [{ input_schema: { properties: { api_key: { type: "string" } } } }],
      max_tokens: 100,
    });
  });
});
