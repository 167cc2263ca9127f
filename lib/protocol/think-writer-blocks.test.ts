/**
 * `ThinkWriter` with answers that are hard to write reasoning into: markers inside a call's
 * JSON strings (and strings the parser recovers from), text after a stand-alone marker of a
 * delimiter dialect, blocks the answer never closes, and reasoning that waits past its bound.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "./definition";
import type { Dialect, ProtocolEvent } from "./events";
import { mergePieces } from "./merge";
import { parseAll } from "./parser";
import { markersOf, WRITTEN_BACK_DEFINITIONS, WRITTEN_BACK_DIALECTS } from "./testing";
import { MAX_WAITING, ThinkWriter } from "./think-writer";

type Spec = Dialect | DialectDefinition;
const named = (dialect: Spec) => (typeof dialect === "string" ? dialect : dialect.name);
const EACH = WRITTEN_BACK_DIALECTS.map((dialect) => [named(dialect), dialect] as const);

/**
 * The answer's events, reasoning written back left out: think blocks holding REASON, or what
 * follows it in the model's own think block it was written into (left open by the answer).
 */
function shape(dialect: Spec, text: string): string[] {
  return mergePieces(parseAll(dialect, text, { turn: 0 })).flatMap((event: ProtocolEvent) => {
    if (event.type === "think" && event.content.includes("REASON")) {
      const own = event.content.slice(0, event.content.indexOf("REASON")).trim();
      return own === "" ? [] : [`think:${own}`];
    }
    // An empty think block of the model's own reads the same as the reasoning written in it.
    if (event.type === "think" && event.content.trim() === "") return [];
    if (event.type === "respond" || event.type === "think")
      return [`${event.type}:${event.content.trim()}`];
    if (event.type === "call")
      return [`call:${event.call.name}:${JSON.stringify(event.call.args)}`];
    return [event.type === "error" ? `error:${event.code}` : event.type];
  });
}

/** `answer` with reasoning coming after its first `at` characters, through one writer. */
function withReasoning(dialect: Spec, answer: string, at: number, reasoning = "REASON x") {
  const writer = new ThinkWriter(dialect);
  const wire =
    writer.text(answer.slice(0, at)) +
    writer.think(reasoning) +
    writer.text(answer.slice(at)) +
    writer.close() +
    writer.release();
  return { wire, writer };
}

describe("ThinkWriter: markers inside a call's JSON strings", () => {
  it.each(EACH)(
    "reasoning never goes into the string, wherever it comes (%s)",
    (_name, dialect) => {
      // A raw line break in a string after a marker: the parser ends the block at that marker.
      const broken: Record<string, string> = {
        xml: '<execute>[{"name":"a","args":{"t":"x </execute> y\nmore text"}}]</execute>',
        delimiter: '§call: {"name":"a","args":{"t":"x §end y\nmore"}}\n§execute',
        hermes: '<tool_call>{"name":"a","arguments":{"t":"x </tool_call> then\nsaid"}}</tool_call>',
        action:
          '<action mode="sync">{"name":"a","parameters":{"t":"x </action>\n<response>hi</response>',
      };
      const markers = markersOf(dialect);
      const answers = [
        ...markers.map((marker) => {
          const call = JSON.stringify({
            name: "write",
            args: { text: `a ${marker} b \\" ${marker}` },
          });
          return dialect === "action"
            ? `<action type="tool" mode="sync" id="c1">\n${call}\n</action>`
            : callText(dialect, call);
        }),
        ...(broken[named(dialect)] === undefined ? [] : [broken[named(dialect)] as string]),
      ];
      for (const answer of answers)
        for (let at = 1; at < answer.length; at++) {
          const { wire, writer } = withReasoning(dialect, answer, at);
          expect(shape(dialect, wire), `${JSON.stringify(answer)} at ${at}`).toEqual(
            shape(dialect, answer),
          );
          expect(wire.split("REASON").length - 1).toBe(1);
          expect(writer.unwritten).toBe(0);
        }
    },
  );
});

/** A call as `dialect` writes it: its call (or batch) markers around `json`. */
function callText(dialect: Spec, json: string): string {
  if (dialect === "xml") return `<execute>\n[${json}]\n</execute>`;
  if (dialect === "delimiter") return `§call: ${json}\n§execute`;
  if (dialect === "hermes") return `<tool_call>\n${json}\n</tool_call>`;
  const definition = dialect as DialectDefinition;
  if (definition.family === "tags") return `${definition.batch[0]}[${json}]${definition.batch[1]}`;
  if (definition.family === "hermes") return `${definition.call[0]}${json}${definition.call[1]}`;
  if (definition.family === "delimiter") return `${definition.call} ${json}\n${definition.execute}`;
  throw new Error("no such dialect");
}

describe("ThinkWriter: delimiter dialects, text after a stand-alone marker", () => {
  it.each([
    ["delimiter", "§respond: Hi\n§end\nHello th", "ere, friend"],
    ["delimiter", "§execute\nHello th", "ere, friend"],
    ["arrows", "SAY> Hi\nDONE\nHello th", "ere, friend"],
  ] as const)("is one response, the reasoning after it (%s: %j)", (name, head, tail) => {
    const dialect = name === "arrows" ? WRITTEN_BACK_DEFINITIONS.arrows : name;
    const { wire } = withReasoning(dialect, head + tail, head.length);
    expect(shape(dialect, wire)).toEqual(shape(dialect, head + tail));
    expect(shape(dialect, wire).at(-1)).toBe("respond:Hello there, friend");
    expect(wire).toContain("REASON");
  });

  it("a marker's start the answer ended with after reasoning is a response, not more thinking", () => {
    const writer = new ThinkWriter("delimiter");
    const wire = writer.think("REASON") + writer.text("§") + writer.close() + writer.release();
    expect(shape("delimiter", wire)).toEqual(["respond:§"]);
    const arrows = WRITTEN_BACK_DEFINITIONS.arrows;
    const more = new ThinkWriter(arrows);
    const text = more.think("REASON") + more.text("DONEhello") + more.close() + more.release();
    expect(shape(arrows, text)).toEqual(["respond:DONEhello"]);
  });

  it("reasoning after answer text that cannot tell yet goes before that text", () => {
    const writer = new ThinkWriter("delimiter");
    const wire =
      writer.think("REASON 1") +
      writer.text("§") +
      writer.think("REASON 2") +
      writer.text("x") +
      writer.close() +
      writer.release();
    expect(wire).toBe("§think: REASON 1\n§think: REASON 2\n§respond: §x");
    expect(shape("delimiter", wire)).toEqual(["respond:§x"]);
  });
});

describe("ThinkWriter: a block the answer never closes", () => {
  it.each(EACH)(
    "reasoning waiting on it is written where the answer ends, read as thinking after the block (%s)",
    (_name, dialect) => {
      const markers = markersOf(dialect);
      for (const opener of markers) {
        for (const answer of [`${opener}Hel`, opener]) {
          const { wire, writer } = withReasoning(dialect, answer, Math.max(1, answer.length - 1));
          expect(shape(dialect, wire), JSON.stringify(wire)).toEqual(shape(dialect, answer));
          expect(wire.split("REASON").length - 1, JSON.stringify(wire)).toBe(1);
          expect(writer.unwritten).toBe(0);
          // Shown as thinking, after whatever the answer's own events say (its error last).
          const events = mergePieces(parseAll(dialect, wire, { turn: 0 }));
          const reasoning = events.findIndex(
            (event) => event.type === "think" && event.content.includes("REASON"),
          );
          expect(reasoning, JSON.stringify(wire)).toBeGreaterThanOrEqual(0);
          // Nothing after it, but the error of the model's own think block it went on.
          const after = events.slice(reasoning + 1);
          expect(
            after.every((event) => event.type === "error" && event.code === "unclosed_block"),
          ).toBe(true);
          expect(after.length).toBeLessThanOrEqual(1);
        }
      }
    },
  );

  it("an unclosed response, then its reasoning: the response's error, then thinking", () => {
    const writer = new ThinkWriter("xml");
    let wire = writer.text("<respond>Hel") + writer.think("REASON");
    expect(writer.unwritten).toBe("REASON".length);
    wire += writer.close() + writer.release();
    expect(wire).toBe("<respond>Hel<think>REASON</think>\n");
    expect(writer.unwritten).toBe(0);
    const events = mergePieces(parseAll("xml", wire, { turn: 0 }));
    expect(events.map((event) => event.type)).toEqual(["respond", "error", "think"]);
    expect(events[0]).toMatchObject({ content: "Hel", span: { start: 0, end: 12 } });
    expect(events[1]).toMatchObject({ code: "unclosed_block", span: { start: 0, end: 12 } });
    expect(events[2]).toMatchObject({ content: "REASON", span: { start: 12 } });
    // Closed after all: the reasoning goes where the block ends, the response whole.
    const later = new ThinkWriter("xml");
    const closed = later.text("<respond>Hel") + later.think("REASON") + later.text("lo</respond>");
    expect(closed + later.release()).toBe("<respond>Hello</respond><think>REASON</think>\n");
  });

  it("holds at most MAX_WAITING characters of it, and says how many more were cut", () => {
    const writer = new ThinkWriter("xml");
    let wire = writer.text("<respond>Hel");
    const piece = "REASON ".padEnd(1000, "r");
    for (let n = 0; n < 100; n++) wire += writer.think(piece);
    expect(writer.unwritten).toBe(100 * 1000);
    wire += writer.text("lo</respond>") + writer.release();
    const events = mergePieces(parseAll("xml", wire, { turn: 0 }));
    const thinks = events.filter((event) => event.type === "think");
    expect(thinks).toHaveLength(1);
    const content = (thinks[0] as { content: string }).content;
    expect(content.length).toBeLessThan(MAX_WAITING + 200);
    expect(content).toContain(`${100 * 1000 - MAX_WAITING} more characters of reasoning were cut`);
    expect(shape("xml", wire)).toEqual(["respond:Hello"]);
  });
});

describe("ThinkWriter: random answers of markers, words and JSON", () => {
  it.each(EACH)("read as without the reasoning, wherever it comes (%s)", (_name, dialect) => {
    const words = [
      ...markersOf(dialect),
      "hello",
      " ",
      "\n",
      '{"name":"a","args":{"t":"',
      '"}}',
      '[{"name":"b","arguments":{}}]',
      "\\",
      '"',
      "[",
      "]",
      "<",
      "§",
      "x",
      "DONE",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }),
        fc.constantFrom("", " ", "\n"),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 4 }),
        (parts, glue, points) => {
          const answer = parts.join(glue);
          // Reasoning at each point (its think block closed there, or left to the answer).
          const cuts = [...new Set(points.map(([point]) => point % (answer.length + 1)))];
          cuts.sort((a, b) => a - b);
          const writer = new ThinkWriter(dialect);
          let wire = "";
          let from = 0;
          cuts.forEach((cut, index) => {
            wire += writer.text(answer.slice(from, cut)) + writer.think(`REASON ${index} `);
            if (points[index]?.[1]) wire += writer.close();
            from = cut;
          });
          wire += writer.text(answer.slice(from)) + writer.close() + writer.release();
          expect(shape(dialect, wire)).toEqual(shape(dialect, answer));
          // Every reasoning written once, wherever the answer ended.
          expect(wire.split("REASON").length - 1).toBe(cuts.length);
          expect(writer.unwritten).toBe(0);
        },
      ),
      { numRuns: 400 },
    );
  });
});
