import { describe, expect, it } from "vitest";
import { createParser, parseAll } from "../protocol/parser";
import type { TranscriptRecord } from "../protocol/records";
import { charsOf, feedChunks } from "../protocol/testing";
import { RunLog } from "./run-log";

const text = '<think>Look first.</think>\n<execute>[{"name": "list", "args": {}}]</execute>';

function logOf(chunks: string[]): RunLog {
  const log = new RunLog();
  let t = 0;
  for (const chunk of chunks) log.apply({ kind: "chunk", turn: 0, t: t++, text: chunk });
  for (const event of feedChunks("xml", chunks)) log.apply({ kind: "event", event });
  return log;
}

describe("RunLog", () => {
  it("merges pieces by id, whatever the chunking", () => {
    const whole = logOf([text]);
    const split = logOf(charsOf(text));
    expect(split.events).toEqual(whole.events);
    expect(split.events.map((event) => event.type)).toEqual(["think", "call", "execute"]);
    expect(split.turns.get(0)?.raw).toBe(text);
    expect(split.chunks).toHaveLength(text.length);
    expect(split.chunks[9]).toMatchObject({ offset: 9, text: text[9] });
  });

  it("finds the innermost event at an offset of the raw text", () => {
    const log = logOf([text]);
    expect(log.eventAt(0, text.indexOf("Look"))?.type).toBe("think");
    expect(log.eventAt(0, text.indexOf('"list"'))?.type).toBe("call");
    expect(log.eventAt(0, text.indexOf("</execute>"))?.type).toBe("execute");
    expect(log.eventAt(0, text.indexOf("\n"))).toBeUndefined();
  });

  it("links results to calls and nests a sub-agent's events under its call", () => {
    const log = new RunLog();
    for (const event of parseAll("xml", text)) log.apply({ kind: "event", event });
    const call = log.events.find((event) => event.type === "call");
    const callId = call?.type === "call" ? call.call.id : "";
    log.apply({
      kind: "event",
      event: {
        type: "result",
        id: "r",
        timestamp: 0,
        callId,
        payload: { tool: "list", status: "success", content: [], outcome: "ok", durationMs: 1 },
      },
    });
    log.apply({
      kind: "event",
      event: { type: "user", id: "child", timestamp: 0, content: "sub-task", parent: callId },
    });
    expect(log.resultOf(callId)?.payload.outcome).toBe("ok");
    expect(log.callOf(callId)?.call.name).toBe("list");
    expect(log.childrenOf(callId).map((event) => event.id)).toEqual(["child"]);
  });

  it("copies itself as it was at an earlier version: merged pieces and a replaced request taken back", () => {
    const request = (model: string): TranscriptRecord => ({
      kind: "request",
      turn: 0,
      t: 0,
      provider: "p",
      model,
      messages: [],
      settings: {},
    });
    // Each chunk, then the pieces the parser made of it (a think in many pieces, merged).
    const parser = createParser("xml", { turn: 0 });
    const all: TranscriptRecord[] = [request("first")];
    charsOf(text).forEach((chunk, t) => {
      all.push({ kind: "chunk", turn: 0, t, text: chunk });
      for (const event of parser.feed(chunk)) all.push({ kind: "event", event });
    });
    all.push(request("again"));
    const thinks = all.filter((record) => record.kind === "event" && record.event.type === "think");
    expect(thinks.length).toBeGreaterThan(5);
    const log = new RunLog();
    log.keepHistory();
    for (const record of all) log.apply(record);
    for (const version of [
      0,
      1,
      5,
      Math.floor(all.length / 3),
      Math.floor(all.length / 2),
      all.length - 1,
      all.length,
    ]) {
      const expected = new RunLog();
      for (const record of all.slice(0, version)) expected.apply(record);
      const copy = log.copyAsOf(version);
      expect(copy.version).toBe(version);
      expect(copy.events).toEqual(expected.events);
      expect(copy.chunks).toEqual(expected.chunks);
      expect([...copy.turns.values()]).toEqual([...expected.turns.values()]);
    }
    expect(() => log.copyAsOf(log.version + 1)).toThrow(RangeError);
  });
});
