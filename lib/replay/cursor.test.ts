import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { ReplayCursor } from "./cursor";
import type { TimedRecord } from "./timeline";

const chunk = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 0, t: 0, text });
const piece = (id: string, content: string): TranscriptRecord => ({
  kind: "event",
  event: { type: "think", id, timestamp: 0, turn: 0, span: { start: 0, end: 1 }, content },
});

/** A think streamed in three pieces (chunks between), then a respond in two. */
const ENTRIES: TimedRecord[] = [
  chunk("<think>"),
  piece("T", "a"),
  chunk("b"),
  piece("T", "b"),
  chunk("c"),
  piece("T", "c"),
  chunk("</think><respond>"),
  piece("R", "x"),
  chunk("y"),
  piece("R", "y"),
  chunk("</respond>"),
].map((record, index) => ({ at: index * 10, record }));

const name = (record: TranscriptRecord) =>
  record.kind === "event" && record.event.type === "think"
    ? `${record.event.id}:${record.event.content}`
    : record.kind === "chunk"
      ? record.text
      : "?";

describe("ReplayCursor steps", () => {
  it("by event: a streamed event's pieces come together, the chunks after it wait", () => {
    const cursor = new ReplayCursor(ENTRIES);
    expect(cursor.stepForward().records.map(name)).toEqual([
      "<think>",
      "T:a",
      "b",
      "T:b",
      "c",
      "T:c",
    ]);
    expect(cursor.position).toBe(50);
    expect(cursor.stepForward().records.map(name)).toEqual([
      "</think><respond>",
      "R:x",
      "y",
      "R:y",
    ]);
    expect(cursor.stepForward().records.map(name)).toEqual(["</respond>"]);
    expect(cursor.done).toBe(true);
  });

  it("by piece: one event record at a time", () => {
    const cursor = new ReplayCursor(ENTRIES);
    expect(cursor.stepForward("piece").records.map(name)).toEqual(["<think>", "T:a"]);
    expect(cursor.stepForward("piece").records.map(name)).toEqual(["b", "T:b"]);
    expect(cursor.index).toBe(4);
  });

  it("back by event takes all of the last event's pieces; by piece only the last", () => {
    const cursor = new ReplayCursor(ENTRIES);
    cursor.stepForward();
    cursor.stepForward();
    const back = cursor.stepBack();
    expect(back.reset).toBe(true);
    expect(back.records.map(name).at(-1)).toBe("</think><respond>");
    expect(cursor.index).toBe(7);
    cursor.stepForward("piece");
    cursor.stepForward("piece");
    expect(cursor.stepBack("piece").records.map(name).at(-1)).toBe("y");
    expect(cursor.stepBack().records).toEqual(ENTRIES.slice(0, 7).map((entry) => entry.record));
    expect(cursor.stepBack().records.map(name)).toEqual(["<think>"]);
  });

  it("takes entries appended after the last one, and refuses any due before it", () => {
    const cursor = new ReplayCursor(ENTRIES.slice(0, 4));
    expect(cursor.advanceTo(1000).records).toHaveLength(4);
    expect(cursor.done).toBe(true);
    cursor.append(ENTRIES.slice(4));
    expect(cursor.done).toBe(false);
    expect(cursor.duration).toBe(ENTRIES.at(-1)?.at);
    expect(cursor.advanceTo(1000).records).toEqual(ENTRIES.slice(4).map((entry) => entry.record));
    expect(() => cursor.append([{ at: 0, record: chunk("late") }])).toThrow(/back in time/);
  });
});
