/**
 * The heap a replay's fold (`ReplayFold`) keeps beyond the log it shows, on a synthetic run of
 * `records` records (chunks and the think pieces they parse to, a new think every two pieces,
 * a call and its result every turn): the log folded plainly, the fold played to the end, and
 * the fold after a seek back to the middle. Needs `--expose-gc`:
 *   node --expose-gc --import tsx bench/replay-fold-memory.ts [records]
 */
import { loadavg } from "node:os";
import { ReplayFold } from "../components/replay/replay-fold";
import { RunLog } from "../lib/client/run-log";
import type { TranscriptRecord } from "../lib/protocol/records";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with node --expose-gc");

function synthetic(count: number): TranscriptRecord[] {
  const records: TranscriptRecord[] = [];
  for (let index = 0; records.length < count; index++) {
    const turn = Math.floor(index / 100);
    const span = { start: 0, end: 1 };
    records.push({ kind: "chunk", turn, t: index, text: "abcd " });
    records.push({
      kind: "event",
      event: { type: "think", id: `th${index >> 1}`, timestamp: 1, turn, span, content: "abcd " },
    });
    if (index % 100 !== 99) continue;
    const call = { id: `c${turn}`, name: "read", args: { path: "a" } };
    records.push({
      kind: "event",
      event: { type: "call", id: `call${turn}`, timestamp: 1, turn, span, raw: "", call },
    } as TranscriptRecord);
    records.push({
      kind: "event",
      event: {
        type: "result",
        id: `result${turn}`,
        timestamp: 1,
        callId: call.id,
        payload: { tool: "read", status: "success", content: "", outcome: "", durationMs: 0 },
      },
    });
  }
  return records.slice(0, count);
}

/** Heap held by what `build` returns, in MB (collected before and after). */
function heldBy(build: () => unknown): number {
  (gc as () => void)();
  (gc as () => void)();
  const before = process.memoryUsage().heapUsed;
  const kept = build();
  (gc as () => void)();
  (gc as () => void)();
  const used = process.memoryUsage().heapUsed - before;
  if (kept === undefined) throw new Error("nothing kept");
  return Math.round(used / 1e5) / 10;
}

const count = Number(process.argv[2] ?? 100_000);
const records = synthetic(count);
// Warm: the code paths compiled before anything is measured.
heldBy(() => new ReplayFold(null).apply({ reset: false, records: records.slice(0, 5000) }));
const plain = heldBy(() => {
  const log = new RunLog();
  for (const record of records) log.apply(record);
  return log;
});
const played = heldBy(() => {
  const fold = new ReplayFold(null);
  fold.begin();
  fold.apply({ reset: false, records });
  return fold;
});
const sought = heldBy(() => {
  const fold = new ReplayFold(null);
  fold.begin();
  fold.apply({ reset: false, records });
  fold.apply({ reset: true, records: records.slice(0, count / 2) });
  return fold;
});
console.log(
  JSON.stringify({
    records: count,
    plainLogMB: plain,
    foldPlayedMB: played,
    foldAfterSeekBackMB: sought,
    load1m: loadavg()[0]?.toFixed(2),
  }),
);
