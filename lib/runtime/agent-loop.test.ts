import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { Dialect, ProtocolEvent, ResultEvent, ResultStatus } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { createDemoModel } from "../providers";
import { builtinTools, createRegistry, ensureWorkspace } from "../tools";
import { type AgentRunOptions, runAgent } from "./agent-loop";
import { batchExecution } from "./turn-execution";

/** A model that writes one scripted text per turn, in small chunks. */
function scripted(
  turns: string[],
  delayMs: number | null = null,
  inputTokens = { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  raw?: Record<string, unknown>,
) {
  const aborted: boolean[] = [];
  let call = 0;
  const model = new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => {
      const index = call++;
      const text = turns[Math.min(index, turns.length - 1)] ?? "";
      abortSignal?.addEventListener("abort", () => {
        aborted[index] = true;
      });
      const pieces = text.match(/[\s\S]{1,7}/g) ?? [];
      const chunks: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "1" },
        ...pieces.map((delta) => ({ type: "text-delta" as const, id: "1", delta })),
        { type: "text-end", id: "1" },
        {
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens,
            outputTokens: { total: 20, text: 20, reasoning: 0 },
            ...(raw === undefined ? {} : { raw: raw as never }),
          },
        },
      ];
      return {
        stream: simulateReadableStream({ chunks, chunkDelayInMs: delayMs, initialDelayInMs: null }),
      };
    },
  });
  return { model, aborted, calls: () => call };
}

async function run(
  dialect: Dialect,
  model: AgentRunOptions["model"],
  extra: Partial<AgentRunOptions> = {},
) {
  const root = await mkdtemp(join(tmpdir(), "wirescope-loop-"));
  const workspace = await ensureWorkspace(root, "test");
  const registry = createRegistry(builtinTools({ shell: false }));
  const records: TranscriptRecord[] = [];
  let id = 0;
  const now = () => Date.now();
  const nextId = () => `x${++id}`;
  const outcome = await runAgent({
    dialect,
    model,
    modelRef: { provider: "test", id: "mock" },
    system: "SYSTEM PROMPT",
    history: [],
    message: "list the files",
    execution: (emit) =>
      batchExecution(
        { registry, context: { workspace }, signal: new AbortController().signal, now, nextId },
        emit,
      ),
    signal: new AbortController().signal,
    now,
    newId: nextId,
    ...extra,
    emit: (record) => {
      records.push(record);
      extra.emit?.(record);
    },
  });
  const events = records.flatMap((record) => (record.kind === "event" ? [record.event] : []));
  return { outcome, records, events, workspace };
}

const types = (events: readonly ProtocolEvent[]) => events.map((event) => event.type);

describe("runAgent", () => {
  it("runs think → execute → results → answer over two turns", async () => {
    const { model } = scripted([
      '<think>Let me look.</think>\n<execute>[{"name": "list", "args": {"path": "."}}]</execute>',
      "<respond>Found them.</respond>\n<end>",
    ]);
    const { outcome, records, events } = await run("xml", model);
    expect(outcome).toMatchObject({ reason: "end", turns: 2, answer: "Found them." });
    const merged = events.filter(
      (event, i, all) => all.findIndex((other) => other.id === event.id) === i,
    );
    expect(types(merged)).toEqual([
      "user",
      "think",
      "call",
      "execute",
      "metric",
      "result",
      "respond",
      "end",
      "metric",
    ]);
    const result = events.find((event) => event.type === "result");
    expect(result?.type === "result" && result.payload.status).toBe("success");
    // Each metric names its turn. Both turns were cut short (execute, end), before the model's
    // usage arrived: their counts are estimates, and say so.
    const metrics = events.flatMap((event) => (event.type === "metric" ? [event] : []));
    expect(metrics.map(({ turn, tokenSource }) => ({ turn, tokenSource }))).toEqual([
      { turn: 0, tokenSource: "estimate" },
      { turn: 1, tokenSource: "estimate" },
    ]);
    const requests = records.filter((record) => record.kind === "request");
    expect(requests.map((record) => record.turn)).toEqual([0, 1]);
    const second = JSON.stringify(requests[1]);
    expect(second).toContain("<results>");
    expect(second).toContain("README.md");
    const chunks = records.filter((record) => record.kind === "chunk");
    expect(chunks.map((record) => (record.kind === "chunk" ? record.text : "")).join("")).toContain(
      "<end>",
    );
  });

  it("records the provider's usage, and says so, when the turn streams to its end", async () => {
    const { model } = scripted(["<respond>Hi.</respond>"]);
    const { events } = await run("xml", model);
    const metric = events.find((event) => event.type === "metric");
    expect(metric).toMatchObject({
      turn: 0,
      tokenSource: "provider",
      step: { input: 100, output: 20 },
    });
  });

  it("records how much of the input the provider's prompt cache read and wrote", async () => {
    const { model } = scripted(["<respond>Hi.</respond>"], null, {
      total: 2000,
      noCache: 100,
      cacheRead: 1700,
      cacheWrite: 200,
    });
    const { events } = await run("xml", model);
    expect(events.find((event) => event.type === "metric")).toMatchObject({
      tokenSource: "provider",
      step: { input: 2000, output: 20, cacheRead: 1700, cacheWrite: 200 },
    });
  });

  it("records how many of the cache writes went to Anthropic's 1-hour cache (its raw usage)", async () => {
    // What @ai-sdk/anthropic hands on: every write in cacheWrite, the split only in `raw`.
    const { model } = scripted(
      ["<respond>Hi.</respond>"],
      null,
      { total: 2000, noCache: 100, cacheRead: 0, cacheWrite: 1900 },
      {
        input_tokens: 100,
        cache_creation_input_tokens: 1900,
        cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 1500 },
      },
    );
    const { events } = await run("xml", model);
    expect(events.find((event) => event.type === "metric")).toMatchObject({
      step: { input: 2000, cacheWrite: 1900, cacheWrite1h: 1500 },
    });
  });

  it("stops generation at the execute boundary and never shows what follows", async () => {
    const { model, aborted } = scripted(
      [
        '<execute>[{"name": "list", "args": {}}]</execute><respond>I made this up</respond>',
        "<respond>ok</respond>",
      ],
      2,
    );
    const { events } = await run("xml", model);
    expect(aborted[0]).toBe(true);
    const responds = events.filter((event) => event.type === "respond");
    expect(responds.map((event) => (event.type === "respond" ? event.content : "")).join("")).toBe(
      "ok",
    );
  });

  it("feeds a malformed call back as a failure so the model can correct itself", async () => {
    const { model } = scripted([
      "<execute>[{name: list}]</execute>",
      '<execute>[{"name": "list", "args": {}}]</execute>',
      "<respond>done</respond>",
    ]);
    const { records, events } = await run("xml", model);
    const results = events.filter((event) => event.type === "result");
    expect(
      results.map((event) => event.type === "result" && [event.payload.tool, event.payload.status]),
    ).toEqual([
      ["protocol", "failure"],
      ["list", "success"],
    ]);
    const second = records.filter((record) => record.kind === "request")[1];
    expect(JSON.stringify(second)).toContain("Invalid JSON in <execute>");
  });

  it("ends at the turn limit with max_turns", async () => {
    const { model } = scripted(['<execute>[{"name": "list", "args": {}}]</execute>']);
    const { outcome, events } = await run("xml", model, { maxTurns: 2 });
    expect(outcome.reason).toBe("max_turns");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "max_turns" });
  });

  it("stops after consecutive failures (circuit breaker)", async () => {
    const { model } = scripted([
      '<execute>[{"name": "read", "args": {"file": "missing.txt"}}]</execute>',
    ]);
    const { outcome, events } = await run("xml", model, { breakerLimit: 2, maxTurns: 5 });
    expect(outcome.reason).toBe("breaker");
    expect(events.filter((event) => event.type === "result")).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "error", code: "circuit_breaker" });
  });

  describe("circuit breaker: failures in a row", () => {
    /** An execution whose turn n returns results with the statuses `turns[n]`, emitting them. */
    function statusExecution(turns: ResultStatus[][]): AgentRunOptions["execution"] {
      let turn = 0;
      let id = 0;
      return (emit) => ({
        onCall: () => {},
        onExecute: () => {},
        finishTurn: async () => {
          const statuses = turns[turn++] ?? [];
          return statuses.map((status) => {
            const result: ResultEvent = {
              type: "result",
              id: `r${++id}`,
              timestamp: 0,
              callId: `c${id}`,
              payload: { tool: "list", status, content: status, outcome: status, durationMs: 0 },
            };
            emit(result);
            return result;
          });
        },
        drain: async () => {},
        abandonTurn: () => {},
      });
    }

    const breakerRun = (turns: ResultStatus[][], breakerLimit: number) => {
      const { model } = scripted(['<execute>[{"name": "list", "args": {}}]</execute>']);
      return run("xml", model, {
        breakerLimit,
        maxTurns: turns.length,
        execution: statusExecution(turns),
      });
    };
    const breakerErrors = (events: readonly ProtocolEvent[]) =>
      events.filter((event) => event.type === "error" && event.code === "circuit_breaker");

    it("a success between failures starts the count again", async () => {
      const turns: ResultStatus[][] = [
        ["failure"],
        ["success"],
        ["failure"],
        ["success"],
        ["failure"],
        ["success"],
      ];
      const { outcome, events } = await breakerRun(turns, 2);
      expect(outcome.reason).toBe("max_turns");
      expect(breakerErrors(events)).toEqual([]);
    });

    it("counts across turns and within a batch, and stops at the limit", async () => {
      const { outcome, events } = await breakerRun(
        [["failure", "success", "failure"], ["failure"], ["failure"], ["success"]],
        3,
      );
      expect(outcome).toMatchObject({ reason: "breaker", turns: 3 });
      expect(breakerErrors(events)).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: "error", code: "circuit_breaker" });
    });

    it("skipped results neither count nor break the row", async () => {
      // failure, skipped, failure: two in a row, the limit is reached.
      const tripped = await breakerRun([["failure", "skipped"], ["failure", "skipped"], []], 2);
      expect(tripped.outcome).toMatchObject({ reason: "breaker", turns: 2 });
      // Skipped alone never trips it.
      const quiet = await breakerRun(
        [
          ["skipped", "skipped"],
          ["skipped", "skipped"],
        ],
        2,
      );
      expect(quiet.outcome.reason).toBe("max_turns");
      expect(breakerErrors(quiet.events)).toEqual([]);
    });
  });

  it("interrupts on abort with the reason given", async () => {
    const { model } = scripted([`<think>${"slow thinking ".repeat(200)}</think>`], 5);
    const controller = new AbortController();
    // The client goes away as soon as the first piece of thinking has been shown.
    const { outcome, events } = await run("xml", model, {
      signal: controller.signal,
      emit: (record) => {
        const event = record.kind === "event" ? record.event : null;
        if (event?.type === "think" && event.content.length > 0) controller.abort("disconnect");
      },
    });
    expect(outcome.reason).toBe("interrupt");
    expect(events.at(-1)).toMatchObject({ type: "interrupt", reason: "disconnect" });
    const think = events
      .filter((event) => event.type === "think")
      .map((event) => (event.type === "think" ? event.content : ""));
    expect(think.join("").length).toBeGreaterThan(0);
    expect(think.join("").length).toBeLessThan(2800);
  });

  it("reports a provider failure as an error event and keeps what arrived", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: "text-start", id: "1" },
            { type: "text-delta", id: "1", delta: "<think>half" },
            { type: "error", error: new Error("429 Too Many Requests") },
          ],
        }),
      }),
    });
    const { outcome, records, events } = await run("xml", model);
    expect(outcome.reason).toBe("error");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "provider" });
    expect(JSON.stringify(events.at(-1))).toContain("429 Too Many Requests");
    expect(records.some((record) => record.kind === "chunk" && record.text === "<think>half")).toBe(
      true,
    );
  });

  it("a turn that got no token (a refused key) has no time to first token, not 0 ms", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [{ type: "error", error: new Error("401 Unauthorized: invalid api key") }],
        }),
      }),
    });
    const { outcome, events } = await run("xml", model);
    expect(outcome.reason).toBe("error");
    const metric = events.find((event) => event.type === "metric");
    expect(metric?.type === "metric" && metric.step).toBeTruthy();
    expect(metric?.type === "metric" && "ttftMs" in metric.step).toBe(false);
    // One that got a token keeps its time.
    const { events: answered } = await run("xml", scripted(["<respond>hi</respond><end>"]).model);
    const timed = answered.find((event) => event.type === "metric");
    expect(timed?.type === "metric" && typeof timed.step.ttftMs).toBe("number");
  });

  it.each(["xml", "delimiter"] as const)(
    "%s: the demo model lists the workspace and answers from the result",
    async (dialect) => {
      const { outcome, events } = await run(dialect, createDemoModel({ dialect, paceMs: 0 }));
      expect(outcome.reason).toBe("end");
      const call = events.find((event) => event.type === "call");
      expect(call?.type === "call" && call.call.name).toBe("list");
      expect(outcome.answer).toContain("README.md");
      expect(events.filter((event) => event.type === "error")).toEqual([]);
    },
  );

  it("ignores what follows <end>, even in the same chunk", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: "text-start", id: "1" },
            {
              type: "text-delta",
              id: "1",
              delta:
                '<respond>hi</respond><end> more <execute>[{"name": "list", "args": {}}]</execute>',
            },
            { type: "text-end", id: "1" },
          ],
        }),
      }),
    });
    const { outcome, events } = await run("xml", model);
    expect(outcome.reason).toBe("end");
    expect(types(events)).toEqual(["user", "respond", "end", "metric"]);
  });

  it("delimiter calls never followed by §execute do not run", async () => {
    const { model } = scripted(['§call: {"name": "list", "args": {}}\n§respond: hmm']);
    const { outcome, events } = await run("delimiter", model);
    expect(outcome.reason).toBe("no_calls");
    expect(events.some((event) => event.type === "result")).toBe(false);
    expect(
      events.some((event) => event.type === "error" && event.code === "call_without_execute"),
    ).toBe(true);
  });
});

describe("a turn's end", () => {
  it("comes after what its last text set off without I/O (however quickly the stream ends)", async () => {
    const text = '<execute>[{"name": "calculate", "args": {"expression": "1 + 1"}}]</execute>';
    // A stream that ends in as few promise steps as a stream can.
    const streamTurn: AgentRunOptions["streamTurn"] = async function* () {
      yield { type: "text", text };
      yield { type: "finish", finishReason: "stop", inputTokens: 1, outputTokens: 1 };
    };
    // A call that settles after many promise steps but no I/O (as `calculate` in the action
    // dialect, which runs the moment its block closes).
    const execution: AgentRunOptions["execution"] = (emit) => ({
      onCall(call) {
        void (async () => {
          for (let step = 0; step < 50; step++) await Promise.resolve();
          const payload = {
            tool: "calculate",
            status: "success" as const,
            content: "2",
            outcome: "1 + 1 = 2",
            durationMs: 0,
          };
          emit({ type: "result", id: "r1", timestamp: 0, callId: call.call.id, payload });
        })();
      },
      onExecute() {},
      finishTurn: async () => [],
      abandonTurn() {},
      drain: async () => {},
    });
    const { events } = await run("xml", createDemoModel({ dialect: "xml" }), {
      streamTurn,
      execution,
    });
    const order = types(events).filter((type) => type === "result" || type === "metric");
    expect(order).toEqual(["result", "metric"]);
  });
});

describe("chunk records", () => {
  it("are timed when their text arrived, when a layer held it back (redaction)", async () => {
    let clock = 1_000;
    const streamTurn: AgentRunOptions["streamTurn"] = async function* () {
      clock = 1_010;
      yield { type: "text", text: "<respond>held ", at: 1_005 };
      clock = 1_900;
      yield { type: "text", text: "over a stall</respond><end>" };
      yield { type: "finish", finishReason: "stop", inputTokens: 1, outputTokens: 1 };
    };
    const { records } = await run("xml", createDemoModel({ dialect: "xml" }), {
      streamTurn,
      now: () => clock,
    });
    const chunks = records.flatMap((record) => (record.kind === "chunk" ? [record.t] : []));
    expect(chunks).toEqual([5, 900]);
  });

  it("give the stream layers the loop's clock (for text they let go of late)", async () => {
    let given: number | undefined;
    const streamTurn: AgentRunOptions["streamTurn"] = async function* (input) {
      given = input.now?.();
      yield { type: "text", text: "<respond>Hi</respond><end>" };
      yield { type: "finish", finishReason: "stop", inputTokens: 1, outputTokens: 1 };
    };
    await run("xml", createDemoModel({ dialect: "xml" }), { streamTurn, now: () => 4_242 });
    expect(given).toBe(4_242);
  });

  it("never go back in time: a part let go of late is timed no earlier than the chunk before", async () => {
    let clock = 1_000;
    const streamTurn: AgentRunOptions["streamTurn"] = async function* () {
      clock = 1_002;
      // Noted by the loop at 1,002; the held rest came at 1,001 (the layer's own earlier reading).
      yield { type: "text", text: "<respond>Hello " };
      yield { type: "text", text: "wor</respond><end>", at: 1_001 };
      yield { type: "finish", finishReason: "stop", inputTokens: 1, outputTokens: 1 };
    };
    const { records } = await run("xml", createDemoModel({ dialect: "xml" }), {
      streamTurn,
      now: () => clock,
    });
    const chunks = records.flatMap((record) => (record.kind === "chunk" ? [record.t] : []));
    expect(chunks).toEqual([2, 2]);
  });
});
