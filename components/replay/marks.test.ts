import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "@/lib/protocol";
import type { TimedRecord } from "@/lib/replay/timeline";
import { replayMarks } from "./marks";

const event = (at: number, value: Partial<ProtocolEvent> & { type: ProtocolEvent["type"] }) =>
  ({
    at,
    record: { kind: "event", event: { id: `e${at}`, timestamp: 0, ...value } },
  }) as TimedRecord;

const span = { start: 0, end: 1 };

describe("replayMarks", () => {
  it("puts one mark per event at its share of the duration, chunks left out", () => {
    const entries: TimedRecord[] = [
      event(0, { type: "user", content: "hi" } as Partial<ProtocolEvent> & { type: "user" }),
      { at: 100, record: { kind: "chunk", turn: 1, t: 100, text: "x" } },
      event(500, {
        type: "call",
        turn: 1,
        span,
        call: { id: "c1", name: "list", args: {} },
      } as never),
      event(1000, { type: "error", code: "invalid_json", message: "bad" } as never),
    ];
    const marks = replayMarks(entries, 1000);
    expect(marks.map((mark) => [mark.position, mark.tone, mark.label])).toEqual([
      [0, "user", "user"],
      [0.5, "call", "call list"],
      [1, "error", "error invalid_json"],
    ]);
  });

  it("marks streamed pieces of one event once, at the first piece", () => {
    const piece = (at: number) =>
      ({
        at,
        record: {
          kind: "event",
          event: { id: "t1", type: "think", timestamp: 0, turn: 1, span, content: "a" },
        },
      }) as TimedRecord;
    expect(replayMarks([piece(10), piece(20), piece(30)], 100)).toMatchObject([
      { position: 0.1, count: 1 },
    ]);
  });

  it("draws the weightiest tone when events share a bucket", () => {
    const entries = [
      event(100, { type: "respond", turn: 1, span, content: "a" } as never),
      event(101, { type: "error", code: "stray_text", message: "m" } as never),
      event(102, { type: "think", turn: 1, span, content: "b" } as never),
    ];
    const [mark, ...rest] = replayMarks(entries, 10_000, entries.length, 100);
    expect(rest).toEqual([]);
    expect(mark).toMatchObject({ tone: "error", count: 3, label: "error stray_text" });
  });

  it("shows a failed result as an error", () => {
    const failed = event(5, {
      type: "result",
      callId: "c1",
      payload: { tool: "read", status: "failure", content: null, outcome: "x", durationMs: 1 },
    } as never);
    expect(replayMarks([failed], 10)[0]?.tone).toBe("error");
  });

  it("keeps marks of a zero-length replay at the start", () => {
    expect(replayMarks([event(0, { type: "user", content: "x" } as never)], 0)[0]?.position).toBe(
      0,
    );
  });
});
