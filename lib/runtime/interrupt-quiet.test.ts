import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import { builtinTools, createRegistry, ensureWorkspace } from "../tools";
import { runAgent } from "./agent-loop";
import { batchExecution } from "./turn-execution";

/** A model that writes `text` in pieces and then waits until it is aborted. */
function openEnded(text: string) {
  return new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "text-start", id: "1" });
          for (const delta of text.match(/[\s\S]{1,5}/g) ?? [])
            controller.enqueue({ type: "text-delta", id: "1", delta });
          abortSignal?.addEventListener("abort", () => controller.close(), { once: true });
        },
      }),
    }),
  });
}

/** Stops the run the moment the first event of `type` arrives: no timers. */
async function stopAt(dialect: Dialect, text: string, type: ProtocolEvent["type"]) {
  const workspace = await ensureWorkspace(await mkdtemp(join(tmpdir(), "wirescope-stop-")), "t");
  const registry = createRegistry(builtinTools({ shell: false }));
  const stop = new AbortController();
  const events: ProtocolEvent[] = [];
  let id = 0;
  const now = () => 0;
  const nextId = () => `x${++id}`;
  const outcome = await runAgent({
    dialect,
    model: openEnded(text),
    modelRef: { provider: "test", id: "mock" },
    system: "SYSTEM",
    history: [],
    message: "think hard",
    execution: (emit) =>
      batchExecution({ registry, context: { workspace }, signal: stop.signal, now, nextId }, emit),
    signal: stop.signal,
    now,
    newId: nextId,
    emit(record) {
      if (record.kind !== "event") return;
      events.push(record.event);
      if (record.event.type === type) stop.abort("user");
    },
  });
  return { outcome, events };
}

describe("Stop inside a block", () => {
  it.each([
    ["xml", "<think>I am still thinking about", "think"],
    ["xml", "<respond>Half an ans", "respond"],
    ["action", "<thought>\nPondering the question at length", "think"],
  ] as const)("ends %s %j quietly: only the interrupt shows", async (dialect, text, type) => {
    const { outcome, events } = await stopAt(dialect, text, type);
    expect(outcome.reason).toBe("interrupt");
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "interrupt", reason: "user" });
    expect(events.some((event) => event.type === type)).toBe(true);
  });
});
