import { setMaxListeners } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import type { CallEvent } from "../lib/protocol";
import { turnCounter } from "../lib/runtime/agent-loop";
import { runBatch } from "../lib/runtime/executor";
import type { StreamTurn, TurnPart } from "../lib/runtime/model-turn";
import { runInEnvironment } from "../lib/runtime/run-environment";
import { createMemoryStore } from "../lib/store";
import { createRegistry, createWorkspace, defineTool, type Tool } from "../lib/tools";

export interface LatencyRow {
  actions: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * The delay between an action's `</action>` arriving from the model and its tool starting,
 * while the model keeps streaming (4-char chunks, 1 ms apart): the whole runtime path —
 * stream adapter, parser, scheduler, registry validation — measured with performance.now().
 */
export async function actionStartLatency(actions = 40): Promise<LatencyRow> {
  const started = new Map<number, number>();
  const probe = defineTool({
    name: "probe",
    description: "Records when it starts.",
    input: z.object({ n: z.number() }),
    async run({ n }) {
      started.set(n, performance.now());
      return { content: n, outcome: "ok" };
    },
  }) as Tool<unknown>;
  const blocks = Array.from(
    { length: actions },
    (_, n) =>
      `<thought>Step ${n}: checking one more thing before the next action.</thought>\n` +
      `<action type="tool" mode="async" id="a${n}">{"name": "probe", "parameters": {"n": ${n}}}</action>\n`,
  );
  const text = `${blocks.join("")}<response>done</response>`;
  const closedAt = new Map<number, number>();
  let turn = 0;
  const streamTurn: StreamTurn = async function* (): AsyncIterable<TurnPart> {
    if (turn++ > 0) {
      yield { type: "text", text: "<response>ok</response>" };
      return;
    }
    let seen = 0;
    for (let at = 0; at < text.length; at += 4) {
      const piece = text.slice(at, at + 4);
      const upTo = text.slice(0, at + 4);
      // The chunk that completes the (seen+1)-th `</action>` is timed as it is handed over.
      while (seen < actions && upTo.split("</action>").length - 1 > seen)
        closedAt.set(seen++, performance.now());
      yield { type: "text", text: piece };
      await sleep(1);
    }
  };
  const workspace = await createWorkspace(await mkdtemp(join(tmpdir(), "wirescope-bench-")));
  let id = 0;
  await runInEnvironment(
    {
      dialect: "action",
      model: new MockLanguageModelV3(),
      modelRef: { provider: "bench", id: "scripted" },
      system: "",
      settings: {},
      registry: createRegistry([probe]),
      workspace,
      relics: createMemoryStore(),
      signal: new AbortController().signal,
      now: () => performance.now(),
      newId: () => `b${++id}`,
      emit: () => {},
      turns: turnCounter(),
      streamTurn,
    },
    "go",
  );
  const delays = [...closedAt].flatMap(([n, at]) => {
    const start = started.get(n);
    return start === undefined ? [] : [start - at];
  });
  delays.sort((a, b) => a - b);
  const pick = (q: number) =>
    delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? Number.NaN;
  return {
    actions: delays.length,
    medianMs: pick(0.5),
    p95Ms: pick(0.95),
    maxMs: delays.at(-1) ?? Number.NaN,
  };
}

export interface ParallelRow {
  tools: number;
  toolMs: number;
  wallMs: number;
}

/** N calls of a tool that takes `toolMs`, in one batch: ≈ toolMs when they really run in parallel. */
export async function parallelBatch(
  counts: readonly number[],
  toolMs = 200,
): Promise<ParallelRow[]> {
  const wait = defineTool({
    name: "wait",
    description: "Sleeps.",
    input: z.object({}),
    async run() {
      await sleep(toolMs);
      return { content: "ok", outcome: "ok" };
    },
  }) as Tool<unknown>;
  const registry = createRegistry([wait]);
  const workspace = await createWorkspace(await mkdtemp(join(tmpdir(), "wirescope-bench-")));
  const rows: ParallelRow[] = [];
  for (const count of counts) {
    const calls: CallEvent[] = Array.from({ length: count }, (_, n) => ({
      type: "call",
      id: `c${n}`,
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      call: { id: `c${n}`, name: "wait", args: {} },
    }));
    let id = 0;
    const signal = new AbortController().signal;
    setMaxListeners(0, signal);
    const began = performance.now();
    await runBatch(calls, {
      registry,
      context: { workspace },
      signal,
      now: () => performance.now(),
      nextId: () => `r${++id}`,
    });
    rows.push({ tools: count, toolMs, wallMs: performance.now() - began });
  }
  return rows;
}
