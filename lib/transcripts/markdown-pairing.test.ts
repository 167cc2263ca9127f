import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { exportMarkdown } from "./markdown";
import { sampleTranscript } from "./testing";

const { meta } = sampleTranscript();

/** One run of the action dialect: `call1` every time, its result after it. */
function run(runId: string, turn: number, path: string, outcome: string) {
  const events: ProtocolEvent[] = [
    {
      type: "call",
      id: `${runId}-c`,
      timestamp: 1,
      turn,
      span: { start: 0, end: 1 },
      call: { id: "call1", name: "read", args: { file: path } },
    },
    {
      type: "result",
      id: `${runId}-r`,
      timestamp: 2,
      turn,
      callId: "call1",
      payload: { tool: "read", status: "success", content: outcome, outcome, durationMs: 1 },
    },
  ];
  return events.map((event): TranscriptRecord & { runId: string } => ({
    kind: "event",
    event,
    runId,
  }));
}

describe("Markdown export pairing", () => {
  it("pairs each result with the call of its own run when call ids repeat", () => {
    const records = [...run("run-a", 0, "a.txt", "read A"), ...run("run-b", 1, "b.txt", "read B")];
    const markdown = exportMarkdown({ meta, records });
    const a = markdown.indexOf('"file": "a.txt"');
    const b = markdown.indexOf('"file": "b.txt"');
    expect(markdown.indexOf("read A")).toBeGreaterThan(a);
    expect(markdown.indexOf("read A")).toBeLessThan(b);
    expect(markdown.indexOf("read B")).toBeGreaterThan(b);
    expect(markdown).not.toContain("_No result._");
  });

  it("leaves a call of an interrupted run without a result, and the next run's call paired", () => {
    const [firstCall] = run("run-a", 0, "a.txt", "read A");
    if (firstCall === undefined) throw new Error("no call");
    const records = [firstCall, ...run("run-b", 0, "b.txt", "read B")];
    const markdown = exportMarkdown({ meta, records });
    expect(markdown.indexOf("_No result._")).toBeLessThan(markdown.indexOf('"file": "b.txt"'));
    expect(markdown.indexOf("read B")).toBeGreaterThan(markdown.indexOf('"file": "b.txt"'));
  });
});
