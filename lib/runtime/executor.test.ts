import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { CallEvent } from "../protocol/events";
import { createRegistry, createWorkspace, defineTool, type Tool, ToolFailure } from "../tools";
import { capContent, runBatch, runCall } from "./executor";

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    });
  });

/** How many `wait` calls are running right now, and the most at once. */
const concurrency = { active: 0, max: 0 };
/** Called when a `wait` call starts, so a test can act on that moment instead of a timer. */
let onWaitStart: (() => void) | undefined;

const tools = [
  defineTool({
    name: "wait",
    description: "Waits, then echoes.",
    input: z.object({ ms: z.number(), say: z.string() }),
    async run({ ms, say }, { signal }) {
      concurrency.active++;
      concurrency.max = Math.max(concurrency.max, concurrency.active);
      onWaitStart?.();
      try {
        await sleep(ms, signal);
      } finally {
        concurrency.active--;
      }
      return { content: say, outcome: `Waited ${ms} ms` };
    },
  }),
  defineTool({
    name: "fail",
    description: "Always fails.",
    input: z.object({}),
    async run() {
      throw new ToolFailure("No such thing.");
    },
  }),
  defineTool({
    name: "big",
    description: "Returns a lot.",
    input: z.object({ size: z.number() }),
    async run({ size }) {
      return { content: "x".repeat(size), outcome: "Made text" };
    },
  }),
] as Tool<unknown>[];

async function setup() {
  const root = await mkdtemp(join(tmpdir(), "wirescope-executor-"));
  const workspace = await createWorkspace(root);
  let id = 0;
  return {
    registry: createRegistry(tools),
    context: { workspace },
    signal: new AbortController().signal,
    now: () => performance.now(),
    nextId: () => `r${++id}`,
  };
}

function call(name: string, args: Record<string, unknown>, id = name): CallEvent {
  return {
    type: "call",
    id,
    timestamp: 0,
    turn: 0,
    span: { start: 0, end: 0 },
    call: { id, name, args },
  };
}

describe("runBatch", () => {
  it("runs calls in parallel and returns results in call order", async () => {
    const options = await setup();
    const calls = [
      call("wait", { ms: 120, say: "slow" }, "a"),
      call("wait", { ms: 10, say: "fast" }, "b"),
      call("wait", { ms: 60, say: "middle" }, "c"),
    ];
    concurrency.max = 0;
    const results = await runBatch(calls, options);
    expect(results.map((result) => [result.callId, result.payload.content])).toEqual([
      ["a", "slow"],
      ["b", "fast"],
      ["c", "middle"],
    ]);
    expect(concurrency.max).toBe(3);
  });

  it("isolates failures: unknown tool, bad args, a failing tool — the others still succeed", async () => {
    const options = await setup();
    const results = await runBatch(
      [
        call("nope", {}, "1"),
        call("wait", { ms: "soon" }, "2"),
        call("fail", {}, "3"),
        call("wait", { ms: 1, say: "ok" }, "4"),
      ],
      options,
    );
    expect(results.map((result) => result.payload.status)).toEqual([
      "failure",
      "failure",
      "failure",
      "success",
    ]);
    expect(String(results[0]?.payload.content)).toContain('Unknown tool "nope"');
    expect(String(results[1]?.payload.content)).toContain("ms");
    expect(results[2]?.payload.content).toBe("No such thing.");
    expect(results[3]?.payload.content).toBe("ok");
  });

  it("stops a call at its timeout with a failure result", async () => {
    const options = await setup();
    const [result] = await runBatch([call("wait", { ms: 5000, say: "never" })], {
      ...options,
      timeoutMs: 50,
    });
    expect(result?.payload.status).toBe("failure");
    expect(result?.payload.outcome).toBe("Timed out after 0.1 s");
  });

  it("cancels running calls when the run is interrupted", async () => {
    const options = await setup();
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => {
      onWaitStart = resolve;
    });
    const pending = runCall(call("wait", { ms: 60_000, say: "never" }), {
      ...options,
      signal: controller.signal,
    });
    await started;
    onWaitStart = undefined;
    controller.abort();
    const result = await pending;
    expect(result.payload.status).toBe("failure");
    expect(result.payload.content).toBe("The call was cancelled.");
  });

  it("caps large results and says so", async () => {
    const options = await setup();
    const [result] = await runBatch([call("big", { size: 100_000 })], {
      ...options,
      maxResultBytes: 1000,
    });
    const content = String(result?.payload.content);
    expect(content.startsWith("x".repeat(1000))).toBe(true);
    expect(content).toContain("[truncated: 99000 of 100000 characters not shown]");
    expect(result?.payload.outcome).toBe("Made text (truncated to 1000 characters)");
  });
});

describe("capContent", () => {
  it("leaves small content alone and serializes objects before cutting", () => {
    const small = { content: { a: 1 }, outcome: "ok" };
    expect(capContent(small, 100)).toBe(small);
    const cut = capContent({ content: { text: "y".repeat(50) }, outcome: "ok" }, 20);
    expect(cut.content).toBe(`{"text":"yyyyyyyyyyy\n[truncated: 41 of 61 characters not shown]`);
  });
});
