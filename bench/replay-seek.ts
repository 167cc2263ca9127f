/**
 * Replay's seek on a long conversation (the issue's ~40,000 records: 120 runs of the demo
 * model's long answer, recorded into a memory store first, ~15 s): what folding the replay into
 * the page's log costs for a seek forward, for a seek back as it was (a fresh fold from the
 * first record) and as it is (`ReplayFold`: a copy of the furthest log folded as it was then).
 * The fold only: the page's render after it is the same either way. Figures only, interleaved:
 *   npx tsx bench/replay-seek.ts [runs]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReplayFold } from "../components/replay/replay-fold";
import { planReplay } from "../components/replay/replay-plan";
import { RunLog } from "../lib/client/run-log";
import { readRunStream } from "../lib/client/run-stream";
import type { TranscriptRecord } from "../lib/protocol/records";
import { readConfig } from "../lib/server/config";
import { startRun } from "../lib/server/runs";
import { createMemoryStore, type StoredRecord } from "../lib/store";
import { measureInterleaved } from "./timing";

async function recordConversation(runs: number): Promise<StoredRecord[]> {
  const store = createMemoryStore();
  const config = readConfig({
    WIRESCOPE_DATA_DIR: mkdtempSync(join(tmpdir(), "wirescope-replay-seek-")),
    WIRESCOPE_DEMO_PACE_MS: "0",
  });
  let transcriptId: string | undefined;
  for (let run = 0; run < runs; run++) {
    const started = await startRun(
      {
        message: `explain the protocol in a long answer (run ${run})`,
        dialect: "xml",
        ...(transcriptId === undefined ? {} : { transcriptId }),
      },
      { store, config },
    );
    transcriptId = started.transcriptId;
    for await (const _record of readRunStream(started.body)) {
      // Drain: the stream closes after the last record is stored.
    }
  }
  const transcript = await store.getTranscript(transcriptId ?? "");
  if (transcript === null) throw new Error("nothing recorded");
  return transcript.records;
}

function freshFold(records: readonly TranscriptRecord[], count: number): RunLog {
  const log = new RunLog();
  for (let index = 0; index < count; index++) log.apply(records[index] as TranscriptRecord);
  return log;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 7);
  const recorded = await recordConversation(120);
  const planned = planReplay("xml", recorded).entries.map((entry) => entry.record);
  const total = planned.length;
  // The play head at 90 %, sought back to the middle; forward: the middle to 90 % (as far).
  const from = Math.floor(total * 0.9);
  const to = Math.floor(total / 2);
  const played = new ReplayFold(null);
  played.begin();
  played.apply({ reset: false, records: planned.slice(0, from) });
  const backFrame = { reset: true, records: planned.slice(0, to) };

  const middle = freshFold(planned, to);
  const [forward, copy, backBefore, backAfter] = await measureInterleaved(
    [
      () => {
        // Forward from the middle to 90 %: the records in between onto (a copy of) the log
        // that holds the middle; the copy is timed on its own too.
        const log = middle.clone();
        for (let index = to; index < from; index++) log.apply(planned[index] as TranscriptRecord);
        return log.version;
      },
      () => middle.clone().version,
      () => freshFold(planned, to).version,
      () => played.apply(backFrame).version,
    ],
    { warmup: 2, runs },
  );
  const load = (await import("node:os")).loadavg()[0]?.toFixed(2);
  console.log(
    JSON.stringify(
      {
        records: total,
        seekBackRecords: from - to,
        forwardFoldMs: forward?.medianMs,
        copyOfMiddleMs: copy?.medianMs,
        backBeforeMs: backBefore?.medianMs,
        backAfterMs: backAfter?.medianMs,
        spread: {
          forward: [forward?.minMs, forward?.maxMs],
          copy: [copy?.minMs, copy?.maxMs],
          backBefore: [backBefore?.minMs, backBefore?.maxMs],
          backAfter: [backAfter?.minMs, backAfter?.maxMs],
        },
        load1m: load,
      },
      null,
      2,
    ),
  );
}

void main();
