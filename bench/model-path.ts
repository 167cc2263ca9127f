/**
 * The demo model's parts on their way to the agent loop, alone (issue 19, fifth round): the
 * same stream chain a server run reads (`createStreamTurn` with the idle watch, failure wording,
 * redaction), the demo model's long answer (Markdown, about 2,000 characters) in the xml dialect. Prints the
 * process CPU per part (`process.cpuUsage`) for 300 turns at once at pace 15 ms and for turns one
 * after another at pace 0; then whole runs through the agent loop (`runInEnvironment`: system
 * prompt, context, parser, tools in a seeded workspace, records to a no-op emit) at pace 0,
 * the bench's five messages in turn, CPU per record. Figures are printed, never asserted.
 * `npx tsx bench/model-path.ts`
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDemoModel } from "../lib/providers/demo-model";
import { turnCounter } from "../lib/runtime/agent-loop";
import { createStreamTurn, type StreamTurn } from "../lib/runtime/model-turn";
import { describeFailures } from "../lib/runtime/provider-errors";
import { redactingStreamTurn } from "../lib/runtime/redact-stream";
import { runInEnvironment } from "../lib/runtime/run-environment";
import { systemPrompt } from "../lib/runtime/system-prompt";
import { createMemoryStore } from "../lib/store";
import { builtinTools, createRegistry, ensureWorkspace } from "../lib/tools";
import { DEMO_MESSAGES } from "./demo-messages";
import { loadAverage } from "./table";

const messages = [
  { role: "system" as const, content: "You write xml." },
  { role: "user" as const, content: "explain the workspace in detail" },
];

function chain(): StreamTurn {
  const described = describeFailures(createStreamTurn({ idleTimeoutMs: 60_000 }), {
    label: "Demo",
    model: "scripted",
    secrets: [],
  });
  return redactingStreamTurn(described, []);
}

async function turn(streamTurn: StreamTurn, paceMs: number): Promise<number> {
  const model = createDemoModel({ dialect: "xml", paceMs });
  let parts = 0;
  const signal = new AbortController().signal;
  for await (const _part of streamTurn({ model, messages, settings: {}, signal })) parts++;
  return parts;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "wirescope-model-path-"));
const relics = createMemoryStore();
let runs = 0;

/** One run of `message` in the xml dialect, as the server starts it; the records it made. */
async function agentRun(streamTurn: StreamTurn, message: string): Promise<number> {
  const dialect = "xml";
  const registry = createRegistry(builtinTools({ shell: false }));
  const workspace = await ensureWorkspace(dataDir, `run-${++runs}`);
  let records = 0;
  let id = 0;
  await runInEnvironment(
    {
      dialect,
      model: createDemoModel({ dialect, paceMs: 0 }),
      modelRef: { provider: "demo", id: "scripted" },
      system: systemPrompt(dialect, registry.describe()),
      settings: {},
      streamTurn,
      registry,
      workspace,
      relics,
      signal: new AbortController().signal,
      now: Date.now,
      newId: () => `r${runs}-${++id}`,
      turns: turnCounter(0),
      emit: () => {
        records++;
      },
    },
    message,
  );
  return records;
}

async function measure(label: string, run: () => Promise<number>, unit = "part") {
  const before = process.cpuUsage();
  const parts = await run();
  const used = process.cpuUsage(before);
  const us = (used.user + used.system) / parts;
  console.log(
    `${label.padEnd(28)} ${String(parts).padStart(7)} ${unit}s  ${us.toFixed(2)} µs CPU/${unit}`,
  );
}

async function main() {
  const streamTurn = chain();
  // Warm-up: module loading, JIT.
  await Promise.all(Array.from({ length: 300 }, () => turn(streamTurn, 1)));
  for (let i = 0; i < 200; i++)
    await agentRun(streamTurn, DEMO_MESSAGES[i % DEMO_MESSAGES.length] as string);
  for (let round = 0; round < 3; round++) {
    await measure("300 turns at once, 15 ms", async () => {
      const counts = await Promise.all(Array.from({ length: 300 }, () => turn(streamTurn, 15)));
      return counts.reduce((a, b) => a + b, 0);
    });
    await measure("2000 turns in turn, pace 0", async () => {
      let parts = 0;
      for (let i = 0; i < 2000; i++) parts += await turn(streamTurn, 0);
      return parts;
    });
    await measure(
      "500 runs in turn, pace 0",
      async () => {
        let records = 0;
        for (let i = 0; i < 500; i++) {
          records += await agentRun(streamTurn, DEMO_MESSAGES[i % DEMO_MESSAGES.length] as string);
        }
        return records;
      },
      "record",
    );
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`node ${process.version}, load average ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
