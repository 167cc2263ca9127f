import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DetectableDialect, detectDialect, LONGEST_MARKER, PlainTextWatch } from "./detect";
import { plainTextStart } from "./detect.testing";
import { encodeTurn } from "./encode";
import type { ProtocolEvent } from "./events";

const TURN: ProtocolEvent[] = [
  { type: "think", id: "a", timestamp: 0, turn: 0, span: { start: 0, end: 0 }, content: "Plan." },
  {
    type: "call",
    id: "b",
    timestamp: 0,
    turn: 0,
    span: { start: 0, end: 0 },
    call: { id: "c1", name: "list", args: { path: "." } },
  },
  { type: "execute", id: "c", timestamp: 0, turn: 0, span: { start: 0, end: 0 } },
];

const HERMES =
  '<think>I should list.</think>\n<tool_call>{"name": "list", "arguments": {"path": "."}}</tool_call>';

describe("detectDialect", () => {
  it.each(["xml", "delimiter", "action"] as const)("names %s from the encoder's own turn", (d) => {
    const detection = detectDialect(encodeTurn(d, TURN));
    expect(detection).toMatchObject({ dialect: d, decided: true });
    expect(detection.reason).toContain(d);
  });

  it("names hermes from <tool_call> after a shared <think>", () => {
    expect(detectDialect(HERMES)).toMatchObject({ dialect: "hermes", decided: true });
    expect(detectDialect("<tool_response>{}</tool_response>").dialect).toBe("hermes");
  });

  it("stays undecided on a shared marker alone and says which", () => {
    const detection = detectDialect("<think>Still thinking about it");
    expect(detection).toMatchObject({ dialect: "xml", decided: false });
    expect(detection.reason).toContain("<think> (xml and hermes)");
  });

  it("stays undecided on marker-less text, with the fallback asked for", () => {
    const detection = detectDialect("Hello! How can I help?", { fallback: "hermes" });
    expect(detection).toMatchObject({ dialect: "hermes", decided: false });
    expect(detection.reason).toContain("no dialect marker");
    expect(detectDialect("").decided).toBe(false);
  });

  it("lookalikes decide nothing: <thinking>, <actions>, <div>, a § sign", () => {
    const detection = detectDialect("<thinking> a < b, <actions>, <div>§ 12, §ending");
    expect(detection.decided).toBe(false);
  });

  it("a word marker at the very end waits for the next character, or for the end", () => {
    expect(detectDialect("done §end").decided).toBe(false);
    expect(detectDialect("done §end\n").dialect).toBe("delimiter");
    expect(detectDialect("done §end", { final: true }).dialect).toBe("delimiter");
  });

  it("decides an ambiguous text by the earliest marker and names the later ones", () => {
    const detection = detectDialect("<thought>x</thought> then <tool_call>{}</tool_call> §end\n");
    expect(detection).toMatchObject({ dialect: "action", decided: true });
    expect(detection.reason).toContain("markers of delimiter, hermes came later");
  });

  it("looks only inside the window", () => {
    const text = `${"x".repeat(100)}<execute>[]</execute>`;
    expect(detectDialect(text, { windowChars: 100 })).toMatchObject({ decided: false });
    expect(detectDialect(text, { windowChars: 100 }).reason).toContain("first 100 characters");
    expect(detectDialect(text, { windowChars: 200 }).decided).toBe(true);
  });

  it("a partial marker at the end decides nothing yet, the completed one does", () => {
    expect(detectDialect("ok <tool_c").decided).toBe(false);
    expect(detectDialect("ok <tool_call>").dialect).toBe("hermes");
  });
});

describe("plainTextStart", () => {
  it("is -1 while the answer may still open with a marker", () => {
    for (const text of [
      "",
      "  \n",
      "<",
      "<t",
      "<tool_c",
      "§",
      "§thi",
      "[SYS",
      "<think>long thought",
      "<think>a</think>\n <exec",
    ]) {
      expect(plainTextStart(text), JSON.stringify(text)).toBe(-1);
    }
  });

  it("names the first plain character, after white space and a leading think block", () => {
    expect(plainTextStart("Hello")).toBe(0);
    expect(plainTextStart("  Hi")).toBe(2);
    expect(plainTextStart("<think>x</think>\nOK")).toBe(17);
    expect(plainTextStart("<div>")).toBe(0);
    expect(plainTextStart("[1, 2]")).toBe(0);
    expect(plainTextStart("§ 12")).toBe(0);
  });

  it("looks only inside the window", () => {
    expect(plainTextStart(`<think>${"x".repeat(50)}</think>ok`, 20)).toBe(-1);
  });
});

const MARKERS: Record<DetectableDialect, readonly string[]> = {
  xml: ["<execute>", "<respond>", "<end>"],
  delimiter: ["§think:", "§call:", "§execute", "§respond:", "§end", "[SYSTEM:"],
  action: ["<thought>", "<action ", "<response>"],
  hermes: ["<tool_call>", "<tool_response>"],
};
const FILLER = ["hello ", "<think>", "</think>", "<results>", "a < b ", "<div>", "§", "<act", "\n"];

describe("detectDialect properties", () => {
  const dialectArb = fc.constantFrom<DetectableDialect>("xml", "delimiter", "action", "hermes");
  const textArb = fc
    .tuple(
      fc.array(fc.constantFrom(...FILLER), { maxLength: 8 }),
      dialectArb,
      fc.nat(),
      fc.array(
        fc.oneof(fc.constantFrom(...FILLER), fc.constantFrom(...Object.values(MARKERS).flat())),
        {
          maxLength: 8,
        },
      ),
    )
    .map(([before, dialect, pick, after]) => {
      const markers = MARKERS[dialect];
      const marker = markers[pick % markers.length] ?? "";
      // A line break after it: `§end` followed by a letter would be another word.
      return { dialect, text: `${before.join("")}${marker}\n${after.join("")}` };
    });

  it("the first distinctive marker decides, whatever comes after it", () => {
    fc.assert(
      fc.property(textArb, ({ dialect, text }) => {
        expect(detectDialect(text)).toMatchObject({ dialect, decided: true });
      }),
    );
  });

  it("once a prefix is decided, every longer prefix names the same dialect", () => {
    fc.assert(
      fc.property(textArb, ({ text }) => {
        let decided: DetectableDialect | undefined;
        for (let end = 0; end <= text.length; end++) {
          const detection = detectDialect(text.slice(0, end));
          if (decided !== undefined) expect(detection).toMatchObject({ dialect: decided });
          else if (detection.decided) decided = detection.dialect;
        }
        expect(decided).toBeDefined();
      }),
    );
  });

  it("from a resume point, a growing text is decided as the whole is", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.nat(), { maxLength: 6 }), ({ text }, cuts) => {
        const ends = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        let scanned = 0;
        let decided: ReturnType<typeof detectDialect> | undefined;
        for (const end of [...ends, text.length]) {
          const from = Math.max(0, scanned - LONGEST_MARKER);
          const detection = detectDialect(text.slice(0, end), { from });
          scanned = end;
          if (detection.decided) {
            decided = detection;
            break;
          }
        }
        expect(decided).toEqual(detectDialect(text.slice(0, scanned)));
      }),
    );
  });

  it("filler alone never decides", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FILLER), { maxLength: 20 }), (pieces) => {
        expect(detectDialect(pieces.join("")).decided).toBe(false);
      }),
    );
  });
});

describe("PlainTextWatch", () => {
  it("says what plainTextStart says of every prefix, grown a piece at a time (property)", () => {
    const pieces = fc.constantFrom(
      "<think>",
      "</think>",
      "<thi",
      "nk>",
      "</th",
      " ",
      "\n",
      "a",
      "Hello.",
      "<execute>",
      "§call:",
      "<",
      "§",
      "<tool_call>",
      "[SYSTEM:",
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 1, max: 80 }),
        (parts, cuts, windowChars) => {
          const text = parts.join("");
          const watch = new PlainTextWatch(windowChars);
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
            (a, b) => a - b,
          );
          for (const point of [...points, text.length]) {
            const prefix = text.slice(0, point);
            expect(watch.start(prefix), JSON.stringify(prefix)).toBe(
              plainTextStart(prefix, windowChars),
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("finds the answer after a leading think block of 2,000 pieces", () => {
    const watch = new PlainTextWatch();
    let text = "<think>";
    for (let piece = 0; piece < 2_000; piece++) {
      text += "mull ";
      expect(watch.start(text)).toBe(-1);
    }
    text += "</think>\nThe answer.";
    expect(watch.start(text)).toBe(text.indexOf("The answer."));
    expect(plainTextStart(text)).toBe(text.indexOf("The answer."));
  });
});
