import { describe, expect, it } from "vitest";
import { summarizeRecords } from "../metrics/summarize";
import { encodeTurn } from "../protocol/encode";
import { DIALECTS, type Dialect, type ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { feedChunks } from "../protocol/testing";
import { replayRecords } from "../replay/replay";
import {
  chooseRawDialect,
  RAW_CHUNK_CHARS,
  RawTextRecords,
  rawTextToRecords,
  titleOfText,
} from "./raw-text";

/** One turn per dialect as a model writes it: reasoning, then a call. */
const SAMPLES: Record<Dialect, string> = {
  xml: '<think>Check the files.</think>\n<execute>[{"name": "list", "args": {"path": "."}}]</execute>',
  delimiter: '§think: Check the files.\n§call: {"name": "list", "args": {"path": "."}}\n§execute',
  hermes:
    '<think>Check the files.</think>\n<tool_call>{"name": "list", "arguments": {"path": "."}}</tool_call>',
  action:
    '<thought>Check the files.</thought>\n<action type="tool" mode="sync" id="a1">{"name": "list", "parameters": {"path": "."}}</action>',
};

/** What a round trip keeps: kinds, contents and calls, in order (ids and spans aside). */
function conversation(events: readonly ProtocolEvent[]): unknown[] {
  return events.flatMap((event) => {
    switch (event.type) {
      case "think":
      case "respond":
        return [{ type: event.type, content: event.content }];
      case "call":
        return [{ type: "call", name: event.call.name, args: event.call.args }];
      case "end":
        return [{ type: "end" }];
      default:
        return [];
    }
  });
}

const eventsOf = (records: readonly TranscriptRecord[]) =>
  records.flatMap((record) => (record.kind === "event" ? [record.event] : []));
const chunksOf = (records: readonly TranscriptRecord[]) =>
  records.flatMap((record) => (record.kind === "chunk" ? [record] : []));

/** Merged think/respond pieces: chunked parsing may emit one block in several events. */
function merged(events: readonly ProtocolEvent[]): unknown[] {
  const out: { type: string; content?: unknown }[] = [];
  for (const item of conversation(events) as { type: string; content?: string }[]) {
    const last = out[out.length - 1];
    if (last !== undefined && item.content !== undefined && last.type === item.type)
      last.content = `${last.content as string}${item.content}`;
    else out.push({ ...item });
  }
  return out;
}

describe("rawTextToRecords", () => {
  it.each(DIALECTS)(
    "%s: the encoder's text is detected and parses to the same events",
    (dialect) => {
      const long: ProtocolEvent = {
        type: "think",
        id: "long",
        turn: 0,
        timestamp: 0,
        content: "Reading the tree, one directory at a time. ".repeat(300).trim(),
      } as ProtocolEvent;
      const source = [long, ...feedChunks(dialect, [SAMPLES[dialect]])];
      const text = encodeTurn(dialect, source);
      expect(text.length).toBeGreaterThan(2 * RAW_CHUNK_CHARS);
      const { choice, records } = rawTextToRecords(text);
      expect(choice).toMatchObject({ dialect, by: "detected" });
      expect(records[0]).toMatchObject({
        kind: "request",
        turn: 0,
        settings: { rawImport: { dialect, chosenBy: "detected", reason: choice.reason } },
      });
      const chunks = chunksOf(records);
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks.map((chunk) => chunk.text).join("")).toBe(text);
      for (const chunk of chunks) {
        expect(chunk).toMatchObject({ turn: 0, t: 0 });
        expect(chunk.text.length).toBeLessThanOrEqual(RAW_CHUNK_CHARS);
      }
      const events = eventsOf(records);
      expect(merged(events)).toEqual(merged(source));
      expect(events.some((event) => event.type === "call")).toBe(true);
      expect(events.filter((event) => event.type === "error")).toEqual([]);
    },
  );

  it.each([
    ...DIALECTS.map((dialect) => SAMPLES[dialect]),
    "plain words, no marker",
    "<think>cut off before its close",
    '§think: a\n§call: {"name": "x", "args": {}}\n§execute',
  ])("replays without differences and ends with the turn's metric: %s", (text) => {
    const { choice, records } = rawTextToRecords(text);
    expect(replayRecords(choice.dialect, records).diffs).toEqual([]);
    expect(records.at(-1)).toMatchObject({
      kind: "event",
      event: { type: "metric", step: { input: 0, output: Math.ceil(text.length / 4) } },
    });
  });

  it("says its token counts are estimated, for turn 0 (the summary does not call them unknown)", () => {
    const { records } = rawTextToRecords(SAMPLES.hermes);
    const summary = summarizeRecords(records);
    expect(summary).toMatchObject({ turns: 1, tokenSource: "estimate" });
    expect(records.at(-1)).toMatchObject({ event: { type: "metric", turn: 0 } });
  });

  it("marker-less text falls back to xml and says so", () => {
    const { choice, records } = rawTextToRecords("The model just talked.\nNo tags at all.");
    expect(choice.dialect).toBe("xml");
    expect(choice.by).toBe("fallback");
    expect(choice.reason).toMatch(/no marker that only one dialect writes.*parsed as xml/);
    expect(merged(eventsOf(records))).toEqual([
      { type: "respond", content: "The model just talked.\nNo tags at all." },
    ]);
  });

  it("text with only shared markers falls back and names them", () => {
    const { choice } = rawTextToRecords("<think>hmm</think> and then plain words");
    expect(choice).toMatchObject({ dialect: "xml", by: "fallback" });
    expect(choice.reason).toContain("<think> (xml and hermes)");
  });

  it("a named dialect wins over detection", () => {
    const { choice, records } = rawTextToRecords(SAMPLES.hermes, "xml");
    expect(choice).toEqual({ dialect: "xml", by: "query", reason: "named by ?dialect=" });
    // Read as xml, the hermes call is not a call.
    expect(eventsOf(records).some((event) => event.type === "call")).toBe(false);
    const named = rawTextToRecords(SAMPLES.hermes, "hermes");
    expect(named.choice.by).toBe("query");
    expect(eventsOf(named.records).some((event) => event.type === "call")).toBe(true);
  });
});

describe("chooseRawDialect", () => {
  it("waits for more text while the start is shorter than the window", () => {
    expect(chooseRawDialect(undefined, "plain so far", false)).toBeUndefined();
    expect(chooseRawDialect(undefined, "plain <tool_call>", false)?.dialect).toBe("hermes");
    expect(chooseRawDialect(undefined, "x".repeat(20_000), false)).toMatchObject({
      by: "fallback",
    });
    expect(chooseRawDialect(undefined, "x".repeat(20_000), false)?.reason).toContain(
      "the first 16384 characters",
    );
  });
});

describe("RawTextRecords", () => {
  it("never cuts a surrogate pair and gives the same chunks however the text arrives", () => {
    const text = "a😀😀b😀c😀😀😀d";
    const whole = new RawTextRecords(
      { dialect: "xml", by: "query", reason: "" },
      { chunkChars: 3 },
    );
    const all = [...whole.push(text), ...whole.end()];
    const byChar = new RawTextRecords(
      { dialect: "xml", by: "query", reason: "" },
      { chunkChars: 3 },
    );
    const pieces = [...[...text].flatMap((char) => byChar.push(char)), ...byChar.end()];
    for (const records of [all, pieces]) {
      const chunks = chunksOf(records).map((chunk) => chunk.text);
      expect(chunks.join("")).toBe(text);
      for (const chunk of chunks) expect(chunk).toBe(Buffer.from(chunk, "utf8").toString("utf8"));
    }
    expect(chunksOf(pieces)).toEqual(chunksOf(all));
  });
});

describe("titleOfText", () => {
  it("takes the first non-blank line, trimmed and cut", () => {
    expect(titleOfText("\n\n  first line  \nsecond")).toBe("first line");
    expect(titleOfText(`${"w".repeat(100)}\n`)).toBe(`${"w".repeat(79)}…`);
    expect(titleOfText(" \n\t\n")).toBeUndefined();
  });
});
