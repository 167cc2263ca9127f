/**
 * The reviewer's reproduction, end to end below the runtime: an OpenAI-compatible server (a
 * local HTTP one) streams `reasoning_content` apart from the text; the `compat` provider's
 * model, as `resolveModel` gives it, is read as the runtime does. (Two `tool_calls` with one id
 * do not reach the middleware as such through this SDK: it renames the second.)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParser, type Dialect, mergePieces } from "../protocol";
import { resolveModel } from "./registry";

/** What the server streams for the next request. */
let frames: unknown[] = [];
let server: Server;
let baseURL = "";

const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "bare",
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const frame of frames) response.write(`data: ${JSON.stringify(frame)}\n\n`);
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function run(dialect: Dialect) {
  const resolved = resolveModel({ provider: "compat", id: "bare" }, dialect, {
    env: { WIRESCOPE_COMPAT_BASE_URL: baseURL },
  });
  if (!resolved.ok) throw new Error(resolved.message);
  // A real provider's model is a `LanguageModelV3` (wrapped by `withServerPartsAsText`).
  const model = resolved.model as LanguageModelV3;
  const { stream } = await model.doStream({
    prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  });
  let text = "";
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    if (next.value.type === "text-delta") text += next.value.delta;
  const parser = createParser(dialect, { turn: 0 });
  return { text, events: mergePieces([...parser.feed(text), ...parser.end()]) };
}

describe("an OpenAI-compatible server's reasoning", () => {
  it("delimiter: reasoning with a drafted call, then the answer: think and respond, no call", async () => {
    frames = [
      delta({ role: "assistant", reasoning_content: "The user greets me. I could write\n§ca" }),
      delta({ reasoning_content: 'll: {"name":"list","args":{}}\n§execute\nbut no.' }),
      delta({ content: "Hello there!" }),
      delta({ content: " How can I help?" }, "stop"),
    ];
    const { text, events } = await run("delimiter");
    expect(
      events.map((event) => event.type),
      text,
    ).toEqual(["think", "respond"]);
    expect(events[1]).toMatchObject({ content: "Hello there! How can I help?" });
    expect(text).toContain("§·call:");
  });
});
