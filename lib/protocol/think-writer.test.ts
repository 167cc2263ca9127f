/**
 * `ThinkWriter` (`written-back.ts`): reasoning and answer text as a provider streams them →
 * wire text. Reasoning that comes while the answer has a block or a response open waits for it
 * to end, so the answer reads as without it and the reasoning is one think block.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "./definition";
import { encodeTurn } from "./encode";
import type { Dialect, ProtocolEvent } from "./events";
import { mergePieces } from "./merge";
import { parseAll } from "./parser";
import { markersOf, splitAt, WRITTEN_BACK_DIALECTS } from "./testing";
import { ThinkWriter } from "./think-writer";
import { guardReasoning } from "./written-back";

type Spec = Dialect | DialectDefinition;
const DIALECTS = WRITTEN_BACK_DIALECTS;

function parse(dialect: Spec, text: string): ProtocolEvent[] {
  return mergePieces(parseAll(dialect, text, { turn: 0 }));
}

describe("ThinkWriter", () => {
  it("opens, guards and closes reasoning, and holds the answer's start until it can tell", () => {
    const writer = new ThinkWriter("delimiter");
    expect(writer.text("\n ")).toBe("\n ");
    expect(writer.think("Plan §")).toBe("§think: Plan ");
    expect(writer.thinking).toBe(true);
    expect(writer.think("end now")).toBe("§·end now");
    expect(writer.text("\n")).toBe("\n");
    expect(writer.thinking).toBe(false);
    expect(writer.text("Hel")).toBe("§respond: \nHel");
    expect(writer.text("lo")).toBe("lo");
    // A response is open: the reasoning waits for what ends it; a marker's start is held,
    // since the reasoning would go before a marker. Nothing more: "§" was the response's.
    expect(writer.think("more")).toBe("");
    expect(writer.text("§")).toBe("");
    expect(writer.release()).toBe("§§think: more\n");
    expect(writer.release()).toBe("");
  });
});

/** How `dialect` opens and closes a response ("" for bare text), read off its encoder. */
function respondMarkers(dialect: Spec): { open: string; close: string } {
  const block = encodeTurn(dialect, [
    {
      type: "respond",
      id: "r",
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      content: "\u0001",
    },
  ]);
  const at = block.indexOf("\u0001");
  return { open: block.slice(0, at), close: block.slice(at + 1) };
}

/** Answer text and reasoning as a provider streams them, through one writer, as wire text. */
function written(dialect: Spec, deltas: readonly (readonly ["text" | "think", string])[]) {
  const writer = new ThinkWriter(dialect);
  let wire = "";
  for (const [kind, text] of deltas)
    wire += kind === "think" ? writer.think(text) : writer.text(text);
  return wire + writer.close() + writer.release();
}

const named = (dialect: Spec) => (typeof dialect === "string" ? dialect : dialect.name);

describe("ThinkWriter: reasoning that comes while the answer's response is open", () => {
  it.each(DIALECTS.map((dialect) => [named(dialect), dialect]))(
    "is one think event, and the answer one unbroken response, split anywhere (%s)",
    (_name, dialect) => {
      const { open, close } = respondMarkers(dialect);
      const answer = `${open}Hello there, world. How can I help?${close}`;
      const reasoning = "The user greets me; </think> §end GO, I reply.";
      fc.assert(
        fc.property(
          fc.array(fc.nat(), { maxLength: 5 }),
          fc.array(fc.nat(), { maxLength: 3 }),
          fc.integer({ min: open.length + 1, max: answer.length - close.length - 1 }),
          (answerCuts, reasoningCuts, at) => {
            // The response opens and has begun; reasoning comes; the rest of the answer follows.
            const head = splitAt(
              answer.slice(0, at),
              answerCuts.map((cut) => cut % (at + 1)),
            );
            const tail = answer.slice(at);
            const thoughts = splitAt(
              reasoning,
              reasoningCuts.map((cut) => cut % (reasoning.length + 1)),
            );
            const wire = written(dialect, [
              ...head.map((text) => ["text", text] as const),
              ...thoughts.map((text) => ["think", text] as const),
              ["text", tail],
            ]);
            const events = parse(dialect, wire);
            expect(events.filter((event) => event.type === "error")).toEqual([]);
            const responds = events.flatMap((event) =>
              event.type === "respond" ? [event.content.trim()] : [],
            );
            expect(responds).toEqual(["Hello there, world. How can I help?"]);
            const thinks = events.flatMap((event) =>
              event.type === "think" ? [event.content.trim()] : [],
            );
            expect(thinks).toEqual([guardReasoning(dialect, reasoning).trim()]);
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  it.each(DIALECTS.map((dialect) => [named(dialect), dialect]))(
    "whatever the answer, and wherever reasoning comes, the answer reads as without it (%s)",
    (_name, dialect) => {
      const base = { timestamp: 0, turn: 0, span: { start: 0, end: 0 } };
      /** The events' kinds and contents, the reasoning's think blocks left out. */
      const shape = (events: ProtocolEvent[]) =>
        events.flatMap((event) => {
          if (event.type === "think" && event.content.includes("REASON")) return [];
          if (event.type === "respond" || event.type === "think")
            return [`${event.type}:${event.content.trim()}`];
          if (event.type === "call")
            return [`call:${event.call.name}:${JSON.stringify(event.call.args)}`];
          return [event.type === "error" ? `error:${event.code}` : event.type];
        });
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom("think", "respond", "call", "end"), {
            minLength: 1,
            maxLength: 4,
          }),
          fc.array(fc.nat(), { maxLength: 8 }),
          fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
          fc.constantFrom(...markersOf(dialect)),
          (kinds, cuts, thoughts, marker) => {
            const events = kinds.map((kind, index): ProtocolEvent => {
              const id = `e${index}`;
              if (kind === "end") return { type: "end", id, timestamp: 0, turn: 0 };
              if (kind !== "call")
                return { ...base, type: kind, id, content: `${kind} number ${index}` };
              // A marker in a JSON string does not end the call: nor may reasoning go there.
              const call = { id, name: `tool${index}`, args: { a: index, text: `x ${marker} y` } };
              const action = { type: "tool", mode: "sync" } as const;
              return {
                ...base,
                type: "call",
                id,
                call,
                ...(dialect === "action" ? { action } : {}),
              };
            });
            const answer = encodeTurn(dialect, events);
            const pieces = splitAt(
              answer,
              cuts.map((cut) => cut % (answer.length + 1)),
            );
            // Reasoning before some of the pieces, in two deltas, and maybe after the last.
            const before = new Set(thoughts.map((point) => point % (pieces.length + 1)));
            type Delta = readonly ["text" | "think", string];
            const deltas = pieces.flatMap((piece, index): Delta[] => [
              ...(before.has(index)
                ? ([
                    ["think", "REASON one "],
                    ["think", "two"],
                  ] as const)
                : []),
              ["text", piece],
            ]);
            if (before.has(pieces.length)) deltas.push(["think", "REASON at the end"]);
            const wire = written(dialect, deltas);
            expect(shape(parse(dialect, wire))).toEqual(shape(parse(dialect, answer)));
            // Each reasoning written once, whole.
            expect(wire.split("REASON").length - 1).toBe(before.size);
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  it("writes it where the response ends: after its closing marker, before the next marker, or at the end", () => {
    expect(
      written("xml", [
        ["text", "<respond>Hel"],
        ["think", "greet"],
        ["text", "lo</respond>\n<end>"],
      ]),
    ).toBe("<respond>Hello</respond><think>greet</think>\n\n<end>");
    expect(
      written("delimiter", [
        ["text", "§respond: Hel"],
        ["think", "greet"],
        ["text", "lo\n§e"],
        ["text", "nd"],
      ]),
    ).toBe("§respond: Hello\n§think: greet\n§end");
    expect(
      written("hermes", [
        ["text", "Hel"],
        ["think", "greet"],
        ["text", "lo"],
      ]),
    ).toBe("Hello<think>greet</think>\n");
  });

  it("reasoning while nothing is open is written at once, as before", () => {
    expect(
      written("xml", [
        ["text", "<respond>Hi</respond>\n"],
        ["think", "then"],
        ["text", "<end>"],
      ]),
    ).toBe("<respond>Hi</respond>\n<think>then</think>\n<end>");
  });
});
