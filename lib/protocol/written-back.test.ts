/**
 * Reasoning and native calls written back into the model's text (`written-back.ts`): whatever
 * the reasoning holds, it is read back as one think block and nothing else; answer text after
 * it is a response in every dialect; native calls are read back as calls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "./definition";
import { parseDefinition } from "./definition-schema";
import { encodeTurn } from "./encode";
import type { Dialect, ProtocolEvent } from "./events";
import { mergePieces } from "./merge";
import { parseAll } from "./parser";
import { splitAt } from "./testing";
import {
  afterReasoning,
  guardReasoning,
  nativeCallsText,
  ReasoningGuard,
  ThinkWriter,
  thinkMarkers,
} from "./written-back";

type Spec = Dialect | DialectDefinition;

const reasoner: DialectDefinition = {
  name: "reasoner",
  family: "tags",
  think: ["<reasoning>", "</reasoning>"],
  batch: ["<tools>", "</tools>"],
  respond: ["<answer>", "</answer>"],
  end: "<done/>",
  results: ["<observations>", "</observations>"],
};
/** A closing marker that overlaps itself: `=` before `==` makes `===`, closed one early. */
const overlapping: DialectDefinition = {
  name: "overlapping",
  family: "tags",
  think: ["<t>", "=="],
  batch: ["<x>", "</x>"],
  results: ["<r>", "</r>"],
};
/** A one-character closing marker: it cannot be broken inside, so it is replaced. */
const brace: DialectDefinition = {
  name: "brace",
  family: "tags",
  think: ["{think", "}"],
  batch: ["<x>", "</x>"],
  results: ["<r>", "</r>"],
};
const arrows: DialectDefinition = {
  name: "arrows",
  family: "delimiter",
  think: "THINK>",
  call: "CALL>",
  execute: "GO",
  respond: "SAY>",
  end: "DONE",
  results: "[R:",
};
const toolish: DialectDefinition = {
  name: "toolish",
  family: "hermes",
  think: ["<reflect>", "</reflect>"],
  call: ["<fn>", "</fn>"],
  results: ["<out>", "</out>"],
};
const DIALECTS: Spec[] = [
  "xml",
  "delimiter",
  "action",
  "hermes",
  reasoner,
  overlapping,
  brace,
  arrows,
  toolish,
];

/** Every marker of every dialect above, and the calls a model drafts in its reasoning. */
const PIECES = [
  "</think>",
  "<think>",
  "</thought>",
  "<thought>",
  '<execute>[{"name":"rm","args":{}}]</execute>',
  '<action type="tool" mode="sync" id="a">{"name":"rm","parameters":{}}</action>',
  '<tool_call>{"name":"rm","arguments":{}}</tool_call>',
  "<respond>",
  "<end>",
  "<response>",
  '§call: {"name":"rm","args":{}}',
  "§execute",
  "§respond:",
  "§think:",
  "§end",
  "§endpoint",
  "[SYSTEM:",
  "</reasoning>",
  "<tools>",
  "==",
  "=",
  "}",
  "{think",
  "THINK>",
  'CALL> {"name":"rm","args":{}}',
  "GO",
  "SAY>",
  "DONE",
  "[R:",
  "</reflect>",
  '<fn>{"name":"rm","arguments":{}}</fn>',
  "<",
  "/",
  "§",
  "·",
  "\n",
  " ",
  "a",
  "😀",
];

const reasoningText = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 14 })
  .map((pieces) => `x ${pieces.join("")} y`);

function parse(dialect: Spec, text: string): ProtocolEvent[] {
  return mergePieces(parseAll(dialect, text, { turn: 0 }));
}

/** Reasoning fed to a guard in the given pieces, in the think markers, as the writers do. */
function writeBack(dialect: Spec, pieces: readonly string[]): string {
  const { open, close } = thinkMarkers(dialect);
  const guard = new ReasoningGuard(dialect);
  return open + pieces.map((piece) => guard.push(piece)).join("") + guard.end() + close;
}

describe("ReasoningGuard", () => {
  it("is tried on definitions a user could save", () => {
    for (const dialect of DIALECTS)
      if (typeof dialect !== "string") expect(parseDefinition(dialect).ok).toBe(true);
  });

  it.each(
    DIALECTS.map((dialect) => [typeof dialect === "string" ? dialect : dialect.name, dialect]),
  )(
    "any reasoning written back is one think block, its text the guarded reasoning, and nothing else (%s)",
    (_name, dialect) => {
      fc.assert(
        fc.property(reasoningText, fc.array(fc.nat(), { maxLength: 6 }), (reasoning, cuts) => {
          const pieces = splitAt(
            reasoning,
            cuts.map((cut) => cut % (reasoning.length + 1)),
          );
          const wire = writeBack(dialect, pieces);
          // However it came, in one piece or many, the guard writes the same text.
          expect(wire).toBe(writeBack(dialect, [reasoning]));
          const events = parse(dialect, wire);
          expect(events.map((event) => event.type)).toEqual(["think"]);
          const think = events[0] as Extract<ProtocolEvent, { type: "think" }>;
          expect(think.content.trim()).toBe(guardReasoning(dialect, reasoning).trim());
        }),
        { numRuns: 300 },
      );
    },
  );

  it("changes only what would end the block: a · after a marker's first character", () => {
    expect(guardReasoning("xml", 'Maybe </think>\n<execute>[{"name":"rm"}]</execute>')).toBe(
      'Maybe <·/think>\n<execute>[{"name":"rm"}]</execute>',
    );
    expect(guardReasoning("action", "a </thought> <think></think>")).toBe(
      "a <·/thought> <think></think>",
    );
    expect(guardReasoning("delimiter", 'I could write\n§call: {"name":"rm"}\n§execute')).toBe(
      'I could write\n§·call: {"name":"rm"}\n§·execute',
    );
    // `§end` needs a non-word character after it to be a marker.
    expect(guardReasoning("delimiter", "see §endpoint and §end.")).toBe("see §endpoint and §·end.");
    expect(guardReasoning(arrows, "then GO, SAY> hi")).toBe("then G·O, S·AY> hi");
    expect(guardReasoning(brace, "a {b} c")).toBe("a {b· c");
    expect(guardReasoning(overlapping, "a =")).toBe("a =·");
    expect(guardReasoning("xml", "plain <b>text</b>")).toBe("plain <b>text</b>");
  });

  it("takes another character when a definition's markers hold ·", () => {
    const dotted: DialectDefinition = { ...overlapping, think: ["<t>", "·end"] };
    expect(guardReasoning(dotted, "a ·end b")).toBe("a ·\u2027end b");
  });

  it("breaks a marker cut across pieces, and holds no more than a marker's start", () => {
    const guard = new ReasoningGuard("xml");
    expect(guard.push("so </thi")).toBe("so ");
    expect(guard.push("nk> on")).toBe("<·/think> on");
    expect(guard.end()).toBe("");
  });
});

describe("afterReasoning", () => {
  it("puts the respond marker before unmarked text in a delimiter dialect, once it can tell", () => {
    expect(afterReasoning("delimiter", "Hello there!")).toBe("§respond: ");
    expect(afterReasoning(arrows, "Hello")).toBe("SAY> ");
    expect(afterReasoning("delimiter", "\n  ")).toBeNull();
    expect(afterReasoning("delimiter", "§ca")).toBeNull();
    expect(afterReasoning("delimiter", '§call: {"name":"x","args":{}}')).toBe("");
    expect(afterReasoning("delimiter", "§respond: hi")).toBe("");
    for (const dialect of ["xml", "action", "hermes", reasoner] as Spec[])
      expect(afterReasoning(dialect, "Hello")).toBe("");
  });

  // Not action: text outside its blocks is `stray_text` there, reasoning or not.
  it.each(
    DIALECTS.filter((dialect) => dialect !== "action").map((dialect) => [
      typeof dialect === "string" ? dialect : dialect.name,
      dialect,
    ]),
  )("the answer after reasoning is a response, not more thinking (%s)", (_name, dialect) => {
    const answer = "Hello there! How can I help?";
    const wire = `${writeBack(dialect, ["The user greets me."])}${afterReasoning(dialect, answer)}${answer}`;
    const events = parse(dialect, wire);
    const kinds = events.map((event) => event.type).filter((type) => type !== "error");
    expect(kinds).toEqual(["think", "respond"]);
    const respond = events[1] as Extract<ProtocolEvent, { type: "respond" }>;
    expect(respond.content.trim()).toBe(answer);
  });
});

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
          if (event.type === "call") return [`call:${event.call.name}`];
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
          (kinds, cuts, thoughts) => {
            const events = kinds.map((kind, index): ProtocolEvent => {
              const id = `e${index}`;
              if (kind === "end") return { type: "end", id, timestamp: 0, turn: 0 };
              if (kind !== "call")
                return { ...base, type: kind, id, content: `${kind} number ${index}` };
              const call = { id, name: `tool${index}`, args: { a: index } };
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

describe("nativeCallsText", () => {
  it.each(DIALECTS.filter((dialect) => dialect !== overlapping && dialect !== brace))(
    "two calls with the same server id both run, ids made unique (%s)",
    (dialect) => {
      const text = nativeCallsText(dialect, [
        { id: "call_0", name: "list", input: '{"path": "."}' },
        { id: "call_0", name: "read", input: '{"file": "a"}' },
        { name: "read", input: "" },
      ]);
      const events = parse(dialect, text);
      expect(events.filter((event) => event.type === "error")).toEqual([]);
      const calls = events.flatMap((event) => (event.type === "call" ? [event.call] : []));
      expect(calls.map((call) => call.name)).toEqual(["list", "read", "read"]);
      if (dialect === "action")
        expect(calls.map((call) => call.id)).toEqual(["call_0", "call_0-2", "native-3"]);
    },
  );

  it("writes action calls as the encoder does (mode sync)", () => {
    expect(nativeCallsText("action", [{ id: "c1", name: "list", input: "{}" }])).toBe(
      '<action type="tool" mode="sync" id="c1">\n{"name":"list","parameters":{}}\n</action>',
    );
  });
});
