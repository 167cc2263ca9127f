import { createParser, type TranscriptRecord } from "../lib/protocol";
import { generateCorpus } from "./corpus";

/** Realistic records: xml turns from the bench corpus, streamed in 24-char chunks. */
export function benchRecords(events: number): TranscriptRecord[] {
  const out: TranscriptRecord[] = [
    {
      kind: "event",
      event: { type: "user", id: "u", timestamp: 0, content: "Go through the workspace." },
    },
  ];
  let count = 1;
  let t = 0;
  for (let turn = 0; count < events; turn++) {
    const text = generateCorpus("xml", 2500, 1000 + turn).text;
    const parser = createParser("xml", { turn, idPrefix: `t${turn}-` });
    const push = (list: ReturnType<typeof parser.feed>) => {
      for (const event of list) {
        out.push({ kind: "event", event });
        count++;
        if (event.type === "call") {
          const payload = {
            tool: event.call.name,
            status: "success" as const,
            content: "ok",
            outcome: "Done",
            durationMs: 3,
          };
          out.push({
            kind: "event",
            event: {
              type: "result",
              id: `r${count}`,
              timestamp: 0,
              callId: event.call.id,
              turn,
              payload,
            },
          });
          count++;
        }
      }
    };
    for (let at = 0; at < text.length; at += 24) {
      const chunk = text.slice(at, at + 24);
      t += 5;
      out.push({ kind: "chunk", turn, t, text: chunk });
      push(parser.feed(chunk));
    }
    push(parser.end());
  }
  return out;
}

/** `records` as one run of an importable JSONL transcript file (`id` names it). */
export function benchTranscriptFile(records: readonly TranscriptRecord[], id: string): string {
  const header = {
    format: "wirescope-transcript",
    version: 1,
    id,
    title: "Bench: 50,000 events",
    created: Date.now(),
    dialect: "xml",
    model: { provider: "demo", id: "demo" },
    system: "",
    tools: [],
  };
  const lines = [header, ...records.map((record) => ({ ...record, runId: "bench" }))];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}
