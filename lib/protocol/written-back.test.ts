/**
 * Reasoning and native calls written back into the model's text (`written-back.ts`): whatever
 * the reasoning holds, it is read back as one think block and nothing else; answer text after
 * it is a response in every dialect; native calls are read back as calls. `ThinkWriter`:
 * `think-writer.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "./definition";
import { parseDefinition } from "./definition-schema";
import type { Dialect, ProtocolEvent } from "./events";
import { mergePieces } from "./merge";
import { parseAll } from "./parser";
import { splitAt, WRITTEN_BACK_DEFINITIONS, WRITTEN_BACK_DIALECTS } from "./testing";
import {
  afterReasoning,
  guardReasoning,
  nativeCallsText,
  ReasoningGuard,
  thinkMarkers,
} from "./written-back";

type Spec = Dialect | DialectDefinition;

const { reasoner, overlapping, brace, arrows } = WRITTEN_BACK_DEFINITIONS;
const DIALECTS = WRITTEN_BACK_DIALECTS;

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
