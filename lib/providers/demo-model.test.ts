import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { type ModelMessage, streamText } from "ai";
import { describe, expect, it } from "vitest";
import {
  DIALECTS,
  type Dialect,
  type ErrorCode,
  encodeResults,
  type ProtocolEvent,
  parseAll,
  type ResultPayload,
} from "../protocol";
import { createDemoModel, DEMO_MODEL_LABEL } from "./demo-model";
import { EXAMPLE_PROMPTS } from "./demo-rules";
import { SCENARIOS } from "./demo-scenarios";
import { createRandom } from "./random";

async function run(dialect: Dialect, input: string | ModelMessage[]): Promise<string> {
  const model = createDemoModel({ dialect, paceMs: 0 });
  const result =
    typeof input === "string"
      ? streamText({ model, prompt: input })
      : streamText({ model, messages: input });
  let text = "";
  for await (const delta of result.textStream) text += delta;
  return text;
}

async function events(dialect: Dialect, input: string | ModelMessage[]) {
  return parseAll(dialect, await run(dialect, input));
}

const errorCodes = (list: ProtocolEvent[]) =>
  list.flatMap((event) => (event.type === "error" ? [event.code] : []));
const calls = (list: ProtocolEvent[]) =>
  list.flatMap((event) => (event.type === "call" ? [event.call] : []));
const responses = (list: ProtocolEvent[]) =>
  list
    .filter((event) => event.type === "respond")
    .map((event) => event.content)
    .join("");

const LIST_RESULT = {
  tool: "list",
  status: "success" as const,
  content: {
    path: ".",
    entries: [
      { path: "README.md", type: "file", size: 10 },
      { path: "config.json", type: "file", size: 20 },
      { path: "src", type: "directory" },
    ],
  },
  outcome: "Listed 3 entries in .",
  durationMs: 1,
};

describe.each(DIALECTS)("demo model, %s dialect", (dialect) => {
  it.each([
    ["list the files", "list", { path: "." }],
    ["please read notes/todo.md", "read", { file: "notes/todo.md" }],
    ["search for average", "search", { query: "average" }],
    ["what is 2+2", "calculate", { expression: "2+2" }],
    ["calculate 12 * (3 + 4)", "calculate", { expression: "12 * (3 + 4)" }],
    ["write hello.txt: Hi there", "write", { file: "hello.txt", content: "Hi there" }],
  ])("%s → %s", async (prompt, name, args) => {
    const parsed = await events(dialect, prompt);
    expect(errorCodes(parsed)).toEqual([]);
    expect(calls(parsed).map(({ name, args }) => ({ name, args }))).toEqual([{ name, args }]);
    expect(parsed[0]?.type).toBe("think");
    if (dialect !== "action") expect(parsed.some((event) => event.type === "execute")).toBe(true);
  });

  it("explains itself when no rule matches", async () => {
    const parsed = await events(dialect, "hello there");
    expect(calls(parsed)).toEqual([]);
    expect(errorCodes(parsed)).toEqual([]);
    expect(responses(parsed)).toContain("list the files");
  });

  it("answers a results message from the results", async () => {
    const first = await run(dialect, "list the files");
    const callId = calls(parseAll(dialect, first))[0]?.id ?? "call1";
    const parsed = await events(dialect, [
      { role: "user", content: "list the files" },
      { role: "assistant", content: first },
      { role: "user", content: encodeResults(dialect, [{ callId, payload: LIST_RESULT }]) },
    ]);
    expect(errorCodes(parsed)).toEqual([]);
    expect(calls(parsed)).toEqual([]);
    const answer = responses(parsed);
    for (const name of ["README.md", "config.json", "src/"]) expect(answer).toContain(name);
    // Hermes has no end marker: a turn without calls ends the run.
    if (dialect !== "action" && dialect !== "hermes") expect(parsed.at(-1)?.type).toBe("end");
  });

  it("explains a failure result", async () => {
    const failure = {
      ...LIST_RESULT,
      tool: "read",
      status: "failure" as const,
      content: "No such file",
    };
    const parsed = await events(dialect, [
      { role: "user", content: "read nope.txt" },
      { role: "user", content: encodeResults(dialect, [{ callId: "call1", payload: failure }]) },
    ]);
    expect(errorCodes(parsed)).toEqual([]);
    // A hermes <tool_response> carries no status (docs/dialects/hermes.md): the content says what failed.
    const expected = dialect === "hermes" ? "No such file" : "`read` failed: No such file";
    expect(responses(parsed)).toContain(expected);
  });

  it("does not repeat a malformed call's message (the error card says it)", async () => {
    const message = 'The call has no "name".';
    const failure = {
      ...LIST_RESULT,
      tool: "protocol",
      status: "failure" as const,
      content: message,
    };
    const parsed = await events(dialect, [
      { role: "user", content: "demo: invalid json" },
      { role: "user", content: encodeResults(dialect, [{ callId: "e1", payload: failure }]) },
    ]);
    expect(responses(parsed)).toContain("malformed, so nothing ran");
    expect(responses(parsed)).not.toContain(message);
  });
});

describe.each(DIALECTS)("demo model plans and explains, %s dialect", (dialect) => {
  /** Runs the demo through its turns, answering each call with `answer(call)`. */
  async function converse(prompt: string, answer: (name: string) => ResultPayload) {
    const messages: ModelMessage[] = [{ role: "user", content: prompt }];
    const turns: ProtocolEvent[][] = [];
    for (let turn = 0; turn < 4; turn++) {
      const text = await run(dialect, messages);
      const parsed = parseAll(dialect, text);
      turns.push(parsed);
      const made = calls(parsed);
      if (made.length === 0) break;
      messages.push({ role: "assistant", content: text });
      const results = made.map((call) => ({ callId: call.id, payload: answer(call.name) }));
      messages.push({ role: "user", content: encodeResults(dialect, results) });
    }
    return turns;
  }

  it("list the files and read one: lists, then reads the first file, then answers", async () => {
    const read = { ...LIST_RESULT, tool: "read", content: "# Your workspace\nline two" };
    const turns = await converse("list the files and read one", (name) =>
      name === "list" ? LIST_RESULT : read,
    );
    expect(turns.map((turn) => calls(turn).map(({ name, args }) => ({ name, args })))).toEqual([
      [{ name: "list", args: { path: "." } }],
      [{ name: "read", args: { file: "README.md" } }],
      [],
    ]);
    expect(turns.flatMap(errorCodes)).toEqual([]);
    expect(responses(turns[2] ?? [])).toContain("> # Your workspace");
  });

  it("search … then edit: searches, then edits the first match's line", async () => {
    const found = {
      ...LIST_RESULT,
      tool: "search",
      content: { matches: ["notes/todo.md:3: - [ ] The average is wrong."], truncated: false },
    };
    const edited = { ...LIST_RESULT, tool: "edit", content: { file: "notes/todo.md", line: 3 } };
    const turns = await converse("search for average then edit it", (name) =>
      name === "search" ? found : edited,
    );
    expect(calls(turns[1] ?? []).map(({ name, args }) => ({ name, args }))).toEqual([
      {
        name: "edit",
        args: {
          file: "notes/todo.md",
          old: "- [ ] The average is wrong.",
          new: "- [x] The average is wrong.",
        },
      },
    ]);
    expect(responses(turns[2] ?? [])).toContain("`edit` changed notes/todo.md at line 3.");
  });

  it("says why when the second step has nothing to work on", async () => {
    const none = { ...LIST_RESULT, tool: "search", content: { matches: [] } };
    const turns = await converse("search for zebra then edit", () => none);
    expect(turns).toHaveLength(2);
    expect(turns[1]?.find((event) => event.type === "think")).toMatchObject({
      content: "`search` found nothing to edit.",
    });
  });

  it("writes a long answer in Markdown: headings, a list, a code block, a table", async () => {
    const parsed = await events(dialect, "Explain the protocol in a long answer");
    expect(calls(parsed)).toEqual([]);
    expect(errorCodes(parsed)).toEqual([]);
    const answer = responses(parsed);
    expect(answer).toMatch(/^## /m);
    expect(answer).toMatch(/^### /m);
    expect(answer).toMatch(/^1\. /m);
    expect(answer).toMatch(/^- /m);
    expect(answer).toContain("```json\n{");
    expect(answer).toMatch(/^\| --- \| --- \|/m);
    expect(answer.length).toBeGreaterThan(800);
  });

  it("its help lists every rule example and every scenario", async () => {
    const answer = responses(await events(dialect, "hello"));
    for (const example of EXAMPLE_PROMPTS) expect(answer).toContain(`"${example}"`);
    for (const scenario of SCENARIOS) expect(answer).toContain(`"demo: ${scenario}"`);
  });
});

const EXPECTED: Record<string, Record<Dialect, ErrorCode[]>> = {
  "demo: invalid json": {
    xml: ["invalid_json"],
    delimiter: ["invalid_call"],
    action: ["invalid_json"],
    hermes: ["invalid_json"],
  },
  "demo: unclosed block": {
    xml: ["unclosed_block"],
    delimiter: ["call_without_execute"],
    action: ["unclosed_block"],
    hermes: ["unclosed_block"],
  },
  "demo: stray text": { xml: [], delimiter: [], action: ["stray_text"], hermes: [] },
  "demo: forged results": {
    xml: ["model_wrote_results"],
    delimiter: ["model_wrote_results"],
    action: ["model_wrote_results"],
    hermes: ["model_wrote_results"],
  },
  "demo: lookalike tags": { xml: [], delimiter: [], action: [], hermes: [] },
  "demo: xss": { xml: [], delimiter: [], action: [], hermes: [] },
};

describe.each(DIALECTS)("demo scenarios, %s dialect", (dialect) => {
  it.each(Object.keys(EXPECTED))("%s", async (prompt) => {
    const parsed = await events(dialect, prompt);
    expect(errorCodes(parsed)).toEqual(EXPECTED[prompt]?.[dialect]);
    if (prompt === "demo: lookalike tags") expect(responses(parsed)).toContain("<thinking>");
    if (prompt === "demo: xss") {
      // The hostile text reaches the response verbatim: rendering it inert is the UI's job.
      expect(responses(parsed)).toContain("<script>window.__xss=1</script>");
      expect(responses(parsed)).toContain('<img src=x onerror="window.__xss=2">');
      expect(responses(parsed)).toContain("[click me](javascript:window.__xss=3)");
    }
  });

  it("demo: parallel batch → three calls in one batch", async () => {
    const parsed = await events(dialect, "Demo: parallel batch");
    expect(calls(parsed).map((call) => call.name)).toEqual(["list", "read", "calculate"]);
    const executes = parsed.filter((event) => event.type === "execute").length;
    expect(executes).toBe(dialect === "action" ? 0 : 1);
  });

  it("demo: dependencies", async () => {
    const first = await run(dialect, "demo: dependencies");
    const parsed = parseAll(dialect, first);
    expect(errorCodes(parsed)).toEqual([]);
    if (dialect === "action") {
      const actions = parsed.flatMap((event) => (event.type === "call" ? [event.action] : []));
      expect(actions.map((action) => action?.mode)).toEqual(["async", "async", "sync"]);
      expect(actions[2]?.dependsOn).toEqual(["files", "total"]);
      expect(calls(parsed)[2]?.args.content).toBe("Total: $total");
      expect(responses(parsed)).toContain("$total");
      return;
    }
    expect(calls(parsed).map((call) => call.name)).toEqual(["list"]);
    const results = encodeResults(dialect, [{ callId: "files", payload: LIST_RESULT }]);
    const second = await events(dialect, [
      { role: "user", content: "demo: dependencies" },
      { role: "assistant", content: first },
      { role: "user", content: results },
    ]);
    expect(calls(second).map(({ name, args }) => ({ name, args }))).toEqual([
      { name: "read", args: { file: "README.md" } },
    ]);
  });
});

describe("streaming", () => {
  async function chunks(seed: number, chunkChars = 12): Promise<string[]> {
    const model = createDemoModel({ dialect: "xml", paceMs: 0, chunkChars, seed });
    const result = streamText({ model, prompt: "demo: parallel batch" });
    const pieces: string[] = [];
    for await (const delta of result.textStream) pieces.push(delta);
    return pieces;
  }

  it("same seed → same chunks; sizes stay within 1..chunkChars", async () => {
    const first = await chunks(7, 5);
    expect(await chunks(7, 5)).toEqual(first);
    expect(await chunks(8, 5)).not.toEqual(first);
    expect(first.every((piece) => piece.length >= 1 && piece.length <= 5)).toBe(true);
    expect(new Set(first.map((piece) => piece.length)).size).toBeGreaterThan(1);
  });

  it("an injected random drives the sizes", async () => {
    const model = createDemoModel({ dialect: "xml", paceMs: 0, random: createRandom(3) });
    const again = createDemoModel({ dialect: "xml", paceMs: 0, random: createRandom(3) });
    const collect = async (m: typeof model) => {
      const pieces: string[] = [];
      for await (const delta of streamText({ model: m, prompt: "list" }).textStream) {
        pieces.push(delta);
      }
      return pieces;
    };
    expect(await collect(model)).toEqual(await collect(again));
  });

  it("emits the V3 parts in order with usage and a stop finish", async () => {
    const model = createDemoModel({ dialect: "delimiter", paceMs: 0 });
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "list the files" }] }],
    });
    const parts: LanguageModelV3StreamPart[] = [];
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parts.push(next.value);
    }
    const types = parts.map((part) => part.type);
    expect(types.slice(0, 3)).toEqual(["stream-start", "response-metadata", "text-start"]);
    expect(types.slice(-2)).toEqual(["text-end", "finish"]);
    const finish = parts.at(-1);
    expect(finish?.type === "finish" && finish.finishReason).toEqual({
      unified: "stop",
      raw: "stop",
    });
    expect(finish?.type === "finish" && (finish.usage.outputTokens.total ?? 0) > 0).toBe(true);
    const generated = await model.doGenerate({
      prompt: [{ role: "user", content: [{ type: "text", text: "list the files" }] }],
    });
    const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.delta] : []));
    expect(generated.content).toEqual([{ type: "text", text: text.join("") }]);
  });

  it("abort stops the stream with an AbortError", async () => {
    const controller = new AbortController();
    const model = createDemoModel({ dialect: "xml", paceMs: 5, chunkChars: 2 });
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "demo: parallel batch" }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    let deltas = 0;
    const failure = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        if (value.type === "text-delta" && ++deltas === 3) controller.abort();
      }
    })().catch((error: unknown) => error);
    const error = await failure;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("AbortError");
    expect(deltas).toBe(3);
  });

  it("abort through streamText ends the text early", async () => {
    const controller = new AbortController();
    const model = createDemoModel({ dialect: "xml", paceMs: 2, chunkChars: 2 });
    const result = streamText({
      model,
      prompt: "demo: parallel batch",
      abortSignal: controller.signal,
    });
    let text = "";
    let failure: unknown = null;
    try {
      for await (const delta of result.textStream) {
        text += delta;
        if (text.length >= 10) controller.abort();
      }
    } catch (error) {
      failure = error;
    }
    const full = await run("xml", "demo: parallel batch");
    // streamText ends the text stream quietly on abort: no error, and what arrived is a true
    // prefix of the full answer that stops early (a stream that failed at once has no text).
    expect(failure).toBeNull();
    expect(text.length).toBeGreaterThanOrEqual(10);
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);
  });

  it("is labelled as a scripted model", () => {
    const model = createDemoModel({ dialect: "xml" });
    expect([model.provider, model.modelId, model.specificationVersion]).toEqual([
      "demo",
      "scripted",
      "v3",
    ]);
    expect(DEMO_MODEL_LABEL).toMatch(/scripted/);
  });
});
