/**
 * Keys in a Responses API call never reach the store: the agent's own header values, and the
 * header values its request has an MCP tool send to another server, wherever they show
 * (instructions, input, a function_call_output's parts, the model's text split across deltas).
 */
import { describe, expect, it } from "vitest";
import { responsesSse } from "./fake-upstream.testing";
import { proxyTo } from "./responses.testing";

/** Matches no credential pattern: only knowing it is a header value finds it. */
const TOOL_KEY = "Zq8wN3vL0pX7rT2yK9mB4cF6";

describe("keys in a Responses call", () => {
  it("an MCP tool's header values are secrets, wherever they show", async () => {
    const { post, transcripts } = await proxyTo(() => ({
      sse: responsesSse([
        { type: "response.created", response: { id: "resp_k" } },
        { type: "response.output_text.delta", output_index: 0, delta: "It is Zq8wN3vL" },
        { type: "response.output_text.delta", output_index: 0, delta: "0pX7rT2yK9mB4cF6 then." },
        { type: "response.completed", response: { id: "resp_k" } },
      ]),
      step: 5,
    }));
    const response = await post({
      model: "m",
      stream: true,
      instructions: `Use ${TOOL_KEY} for the docs server.`,
      input: [
        { role: "user", content: `my token is ${TOOL_KEY}` },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        {
          type: "function_call_output",
          call_id: "c1",
          output: [{ type: "input_text", text: `got ${TOOL_KEY}` }],
        },
      ],
      tools: [
        {
          type: "mcp",
          server_label: "docs",
          server_url: "https://mcp.example.com/mcp",
          headers: { "x-custom-token": TOOL_KEY, "content-type": "application/json" },
        },
      ],
    });
    expect(await response.text()).toContain(TOOL_KEY.slice(0, 8));
    const [transcript] = await transcripts();
    if (transcript === undefined) throw new Error("nothing was captured");
    const stored = JSON.stringify(transcript);
    expect(stored).not.toContain("Zq8wN3vL");
    expect(stored).not.toContain("0pX7rT2yK9mB4cF6");
    const request = transcript.records.find((record) => record.kind === "request");
    expect(request).toMatchObject({
      settings: {
        tools: [
          { headers: { "x-custom-token": "[redacted]", "content-type": "application/json" } },
        ],
      },
    });
  });
});
