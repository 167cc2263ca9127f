import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore } from "../store";
import { builtinTools, createRegistry, ensureWorkspace } from "../tools";
import { turnCounter } from "./agent-loop";
import { runInEnvironment } from "./run-environment";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function lastUser(prompt: LanguageModelV3Prompt): string {
  const message = [...prompt].reverse().find((entry) => entry.role === "user");
  if (message === undefined || message.role !== "user") return "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Answers by what it was asked: the parent's first turn, a sub-agent's task, the results. */
function actionModel(firstTurn: string) {
  const stream = (text: string) => {
    const chunks: LanguageModelV3StreamPart[] = [
      { type: "text-start", id: "1" },
      ...(text.match(/[\s\S]{1,9}/g) ?? []).map((delta) => ({
        type: "text-delta" as const,
        id: "1",
        delta,
      })),
      { type: "text-end", id: "1" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ];
    return {
      stream: simulateReadableStream({ chunks, chunkDelayInMs: null, initialDelayInMs: null }),
    };
  };
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      const user = lastUser(prompt);
      if (user.startsWith("Count the files"))
        return stream("<response>There are 4 entries.</response>");
      if (user.startsWith("<results>")) return stream("<response>All done.</response>");
      return stream(firstTurn);
    },
    doGenerate: async () => ({
      content: [{ type: "text", text: "A short summary." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    }),
  });
}

async function run(firstTurn: string) {
  const workspace = await ensureWorkspace(await mkdtemp(join(tmpdir(), "wirescope-env-")), "env");
  const records: TranscriptRecord[] = [];
  let id = 0;
  const outcome = await runInEnvironment(
    {
      dialect: "action",
      model: actionModel(firstTurn),
      modelRef: { provider: "test", id: "mock" },
      system: "S",
      settings: {},
      registry: createRegistry(builtinTools({ shell: false })),
      workspace,
      relics: createMemoryStore(),
      signal: new AbortController().signal,
      now: Date.now,
      newId: () => `e${++id}`,
      emit: (record) => records.push(record),
      turns: turnCounter(),
    },
    "start",
  );
  const events = records.flatMap((record): ProtocolEvent[] =>
    record.kind === "event" ? [record.event] : [],
  );
  return { outcome, records, events };
}

describe("action runs", () => {
  it("runs a sub-agent nested under its call, an llm call, and reports unknown variables", async () => {
    const { outcome, records, events } = await run(
      `<action type="agent" mode="sync" id="helper">{"name": "counter", "parameters": {"task": "Count the files"}, "output_key": "count"}</action>
<action type="llm" mode="async" id="sum">{"name": "summarize", "parameters": {"prompt": "Summarize $count"}, "output_key": "summary"}</action>
<response>Result: $count — $summary — $nope</response>`,
    );
    expect(outcome.reason).toBe("no_calls");
    const nested = events.filter((event) => event.parent === "helper");
    expect(nested.map((event) => event.type)).toContain("respond");
    expect(nested[0]).toMatchObject({ type: "user", content: "Count the files" });
    const helper = events.find((event) => event.type === "result" && event.callId === "helper");
    expect(helper).toMatchObject({
      payload: { status: "success", content: "There are 4 entries." },
    });
    const summary = events.find((event) => event.type === "result" && event.callId === "sum");
    expect(summary).toMatchObject({ payload: { status: "success", content: "A short summary." } });
    const unknown = events.filter(
      (event) => event.type === "error" && event.code === "unknown_variable",
    );
    expect(unknown).toHaveLength(1);
    expect(JSON.stringify(unknown[0])).toContain("$nope");
    // Turn numbers stay unique across the parent and its sub-agent.
    const requests = records
      .filter((record) => record.kind === "request")
      .map((record) => record.turn);
    expect(new Set(requests).size).toBe(requests.length);
  });

  it("relic actions store and read values through the store", async () => {
    const { events } = await run(
      `<action type="relic" mode="sync" id="put">{"name": "memory", "parameters": {"operation": "set", "key": "k", "value": {"n": 1}}}</action>
<action type="relic" mode="sync" id="get">{"name": "memory", "parameters": {"operation": "get", "key": "k"}, "output_key": "v"}</action>`,
    );
    const got = events.find((event) => event.type === "result" && event.callId === "get");
    expect(got?.type === "result" && JSON.stringify(got.payload.content)).toContain('"n":1');
  });
});
