/**
 * The paged replay planner's CPU time on long transcripts read a page at a time (1,000 records,
 * the page `use-replay-source.ts` reads): `ReplayPlanner` as it is, and the planner that worked
 * out its cuts again from every record it held at each page (`plan-oracle.testing.ts`, the
 * code before; it held a run without a metric whole, so 100,000 such records cost the square).
 * Both give the same plan (checked here too). Figures only, interleaved rounds:
 *   npx tsx bench/replay-plan.ts [rounds]
 */
import { loadavg } from "node:os";
import type { PlannedRecord } from "../components/replay/plan-cuts";
import { OracleReplayPlanner } from "../components/replay/plan-oracle.testing";
import { ReplayPlanner } from "../components/replay/replay-plan";
import { createParser, type TranscriptRecord } from "../lib/protocol";

const PAGE = 1000;
const RECORDS = 100_000;
const EPOCH = 1_700_000_000_000;

/**
 * `count` records: a user message, then turns of a request and 40 chunks, each parsed. `runs`:
 * each turn after the first is a run of its own (a conversation; `metric`: each turn ends with
 * its metric, else none does: captured calls without usage, each held until 2,000 records of
 * others pass), else one run (without `metric`: an import, a captured call without usage).
 */
function transcript(count: number, metric: boolean, runs = metric): PlannedRecord[] {
  const out: PlannedRecord[] = [];
  let run = 0;
  let runId = "run-0";
  const push = (record: TranscriptRecord) => out.push({ ...record, runId, seq: out.length + 1 });
  push({ kind: "event", event: { type: "user", id: "u", timestamp: EPOCH, content: "go" } });
  for (let turn = 0; out.length < count; turn++) {
    let t = turn * 1000;
    if (runs && turn > 0) {
      runId = `run-${++run}`;
      t = 0;
      const timestamp = EPOCH + turn * 60_000;
      push({ kind: "event", event: { type: "user", id: `u${turn}`, timestamp, content: "go" } });
    }
    const start = EPOCH + (runs ? turn * 60_000 : 0);
    push({ kind: "request", turn, t, provider: "demo", model: "m", messages: [], settings: {} });
    const parser = createParser("xml", { turn, idPrefix: `t${turn}-`, clock: () => start + t });
    const texts = ["<think>", ...Array.from({ length: 38 }, () => "words "), "</think>"];
    for (const text of texts) {
      t += 10;
      push({ kind: "chunk", turn, t, text });
      for (const event of parser.feed(text)) push({ kind: "event", event });
    }
    if (!metric) continue;
    for (const event of parser.end()) push({ kind: "event", event });
    push({
      kind: "event",
      event: {
        type: "metric",
        id: `t${turn}-metric`,
        timestamp: start + t + 5,
        turn,
        step: { input: 1, output: 1, durationMs: t + 5, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs: t + 5 },
      },
    });
  }
  return out.slice(0, count);
}

interface Planner {
  add(records: readonly PlannedRecord[], last: boolean): unknown;
  entries: readonly unknown[];
  duration: number;
}

interface Time {
  cpu: number;
  wall: number;
}

/** Plans `records` a page at a time: CPU ms (user + system) and wall ms. */
function plan(records: readonly PlannedRecord[], planner: Planner): Time {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let at = 0; at < records.length; at += PAGE)
    planner.add(records.slice(at, at + PAGE), at + PAGE >= records.length);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall: performance.now() - wall };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

function main(): void {
  const rounds = Number(process.argv[2] ?? 5);
  const shapes = {
    "one run, no metric": transcript(RECORDS, false),
    "runs with metrics": transcript(RECORDS, true),
    "runs without metrics": transcript(RECORDS, false, true),
  };
  const results: Record<string, unknown> = {};
  for (const [name, records] of Object.entries(shapes)) {
    const before = new OracleReplayPlanner("xml");
    const after = new ReplayPlanner("xml");
    plan(records, before);
    plan(records, after);
    if (JSON.stringify(before.entries) !== JSON.stringify(after.entries))
      throw new Error(`${name}: the plans differ`);
    const times: Record<"before" | "after", Time[]> = { before: [], after: [] };
    for (let round = 0; round < rounds; round++) {
      // Who goes first alternates, so the garbage one leaves falls on both alike.
      const order =
        round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
      for (const which of order)
        times[which].push(
          plan(
            records,
            which === "before" ? new OracleReplayPlanner("xml") : new ReplayPlanner("xml"),
          ),
        );
    }
    results[name] = {
      records: records.length,
      durationMs: after.duration,
      beforeCpuMs: Math.round(median(times.before.map((time) => time.cpu))),
      afterCpuMs: Math.round(median(times.after.map((time) => time.cpu))),
      beforeWallMs: Math.round(median(times.before.map((time) => time.wall))),
      afterWallMs: Math.round(median(times.after.map((time) => time.wall))),
      afterCpuRange: [
        Math.round(Math.min(...times.after.map((time) => time.cpu))),
        Math.round(Math.max(...times.after.map((time) => time.cpu))),
      ],
    };
  }
  console.log(
    JSON.stringify({ page: PAGE, rounds, results, load1m: loadavg()[0]?.toFixed(2) }, null, 2),
  );
}

main();
