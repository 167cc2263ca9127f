import { createParser, type TranscriptRecord } from "../lib/protocol";
import { generateCorpus } from "./corpus";

/** Realistic records: xml turns from the bench corpus, streamed in 24-char chunks. */
export function benchRecords(events: number): TranscriptRecord[] {
  const sink: TurnSink = {
    out: [
      {
        kind: "event",
        event: { type: "user", id: "u", timestamp: 0, content: "Go through the workspace." },
      },
    ],
    count: 1,
    t: 0,
  };
  for (let turn = 0; sink.count < events; turn++) {
    pushStreamedTurn(sink, turn, generateCorpus("xml", 2500, 1000 + turn).text, () => 0);
  }
  return sink.out;
}

/** What streamed turns are added to: the records so far, the events among them, the clock (ms). */
export interface TurnSink {
  out: TranscriptRecord[];
  count: number;
  t: number;
}

/**
 * One xml turn as a run streams it: 24-char chunks 5 ms apart, each followed by the events it
 * completes, and a successful result after each call, stamped `resultAt(clock)`.
 */
export function pushStreamedTurn(
  sink: TurnSink,
  turn: number,
  text: string,
  resultAt: (t: number) => number,
): void {
  const parser = createParser("xml", { turn, idPrefix: `t${turn}-` });
  const push = (list: ReturnType<typeof parser.feed>) => {
    for (const event of list) {
      sink.out.push({ kind: "event", event });
      sink.count++;
      if (event.type !== "call") continue;
      sink.out.push({
        kind: "event",
        event: {
          type: "result",
          id: `r${sink.count}`,
          timestamp: resultAt(sink.t),
          callId: event.call.id,
          turn,
          payload: {
            tool: event.call.name,
            status: "success",
            content: "ok",
            outcome: "Done",
            durationMs: 3,
          },
        },
      });
      sink.count++;
    }
  };
  for (let at = 0; at < text.length; at += 24) {
    const chunk = text.slice(at, at + 24);
    sink.t += 5;
    sink.out.push({ kind: "chunk", turn, t: sink.t, text: chunk });
    push(parser.feed(chunk));
  }
  push(parser.end());
}

/** `records` as one run of an importable JSONL transcript file (`id` names it). */
export function benchTranscriptFile(
  records: readonly TranscriptRecord[],
  id: string,
  { title = "Bench: 50,000 events", modelId = "demo" } = {},
): string {
  const header = {
    format: "wirescope-transcript",
    version: 1,
    id,
    title,
    created: Date.now(),
    dialect: "xml",
    model: { provider: "demo", id: modelId },
    system: "",
    tools: [],
  };
  const lines = [header, ...records.map((record) => ({ ...record, runId: "bench" }))];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}
