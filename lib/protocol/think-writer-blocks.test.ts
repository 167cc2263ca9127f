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

/** The answer's events, reasoning written back (think blocks holding REASON) left out. */
function shape(dialect: Spec, text: string): string[] {
  return mergePieces(parseAll(dialect, text, { turn: 0 })).flatMap((event: ProtocolEvent) => {
    if (event.type === "think" && event.content.includes("REASON")) return [];
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
          expect(wire.split("REASON").length - 1 + (writer.unwritten > 0 ? 1 : 0)).toBe(1);
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
  it.each(EACH)("reasoning waiting on it is not written into it (%s)", (_name, dialect) => {
    const markers = markersOf(dialect);
    for (const opener of markers) {
      const answer = `${opener}Hel`;
      const { wire, writer } = withReasoning(dialect, answer, answer.length - 1);
      expect(shape(dialect, wire), JSON.stringify(answer)).toEqual(shape(dialect, answer));
      // Written once, or (when the stream ended inside the block) counted as never written.
      const written = wire.split("REASON").length - 1;
      expect(written + (writer.unwritten > 0 ? 1 : 0), JSON.stringify(wire)).toBe(1);
    }
  });

  it("waits on through a release, and is written where the block ends if more text comes", () => {
    const writer = new ThinkWriter("xml");
    let wire = writer.text("<respond>Hel") + writer.think("REASON");
    wire += writer.release();
    expect(wire).toBe("<respond>Hel");
    expect(writer.unwritten).toBe("REASON".length);
    wire += writer.text("lo</respond>") + writer.release();
    expect(wire).toBe("<respond>Hello</respond><think>REASON</think>\n");
    expect(writer.unwritten).toBe(0);
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
          // Every reasoning written once, or (the answer ended inside a block) some not at all.
          const written = wire.split("REASON").length - 1;
          if (writer.unwritten === 0) expect(written).toBe(cuts.length);
          else expect(written).toBeLessThan(cuts.length);
        },
      ),
      { numRuns: 400 },
    );
  });
});
