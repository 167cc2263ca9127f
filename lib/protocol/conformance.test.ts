/**
 * One conformance suite for every dialect: realistic texts parsed whole, one
 * character at a time, split at every index and at seeded random points must give the
 * same merged events; nothing the model wrote may fall outside every span; and
 * events → wire text → events is the identity on conversation events.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeTurn } from "./encode";
import { DIALECTS, type Dialect, type ProtocolEvent } from "./events";
import { parseInvariant, uncovered } from "./testing";

const SAMPLES: Record<Dialect, Record<string, string>> = {
  xml: {
    "think, batch, answer": `<think>I should check what files exist first.</think>

<execute>
[
  {"name": "list", "args": {"path": "."}},
  {"name": "write", "args": {"file": "index.html", "content": "<html><body>Hello </execute></body></html>"}},
  {"name": "shell", "args": {"cmd": "echo \\"hello\\" && echo 'world'"}}
]
</execute>`,
    "answer with markdown":
      "<respond>Use `a < b` and **bold** — 🚀 done.\r\n\r\nNext line.</respond>\n<end>",
    "bare text, lookalikes": "Plain answer with <thinking>not a tag</thinking> and <THINK>.\n<end>",
    malformed: `<think>unclosed json next</think><execute>[{"name": "read", "args": {"file": "a.txt"},]</execute> tail <results>[]</results>`,
    "unterminated string recovers": `<execute>[{"name": "x", "args": {"a": "oops}]</execute>\n<respond>after</respond>`,
  },
  delimiter: {
    "delimiter design: single tool call": `§think: I should check what files exist first.
§call: {"name": "file_list", "args": {"path": "."}}
§execute`,
    "batch with markers in strings": `§call: {"name": "write", "args": {"content": "see §execute and §end here"}}
§call: {
  "name": "read",
  "args": {"file": "b.txt"}
}
§execute`,
    "answer and end":
      "§respond: Python is a programming language — see §3 of the guide 🐍.\r\n§end",
    malformed:
      'Intro text\n§call: {not json}\n§respond: sorry [SYSTEM: forged]\n§call: {"name": "x", "args": {}}',
  },
  hermes: {
    "qwen-style parallel calls": `<think>
The user wants the weather in two cities; I can ask for both at once.
</think>

I'll look both up.
<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris", "note": "</tool_call> inside a string"}}
</tool_call>
<tool_call>
{"name": "get_weather", "arguments": "{\\"city\\": \\"Tōkyō 🗼\\"}"}
</tool_call>`,
    "answer only": "Paris is **18 °C** and sunny; Tokyo is 22 °C — a < b, <tools> is text.",
    malformed: `<tool_call>{"name": "read", "arguments": {"file": "a.txt"},}</tool_call>
<tool_call>{"name": "ls", "arguments": []}</tool_call>
<tool_call>{"name": "ls", "arguments": {}}</tool_call>
<tool_response>{"name": "ls", "content": "forged"}</tool_response> <think>cut`,
  },
  action: {
    "action design: format": `<thought>
Your reasoning here.
</thought>

<action type="tool" mode="async" id="fetch1">
{
  "name": "web_scraper",
  "parameters": {"url": "https://example.com"},
  "output_key": "webpage_data"
}
</action>

THOUGHT{
    - content:
}

<action type="agent" mode="sync" id="analyze">
{"name": "data_analyzer", "parameters": {"webpage": "$webpage_data"}, "depends_on": ["fetch1"], "output_key": "analysis"}
</action>

<response>
Based on **$analysis** — done ✅
</response>`,
    "attributes any order": `<action id='x' mode='fire_and_forget' type='relic'>{"name": "kv", "parameters": {"operation": "set", "key": "k", "value": "</action>"}}</action>`,
    malformed: `<action type="nope">{"name": "a", "parameters": {}}</action><response>one</response><response>two</response><thought>cut`,
  },
};

describe.each(DIALECTS)("%s conformance", (dialect) => {
  for (const [name, text] of Object.entries(SAMPLES[dialect])) {
    it(`${name}: same events however the text is split, nothing lost`, () => {
      const events = parseInvariant(dialect, text, { runs: 100 });
      expect(events.length).toBeGreaterThan(0);
      expect(uncovered(text, events)).toEqual([]);
      for (const event of events) {
        if (!("span" in event) || event.span === undefined) continue;
        expect(event.span.start).toBeGreaterThanOrEqual(0);
        expect(event.span.end).toBeLessThanOrEqual(text.length);
        expect(event.span.start).toBeLessThanOrEqual(event.span.end);
      }
    });
  }

  it("round-trips conversation events through the encoder", () => {
    fc.assert(
      fc.property(turnArbitrary(dialect), (events) => {
        const text = encodeTurn(dialect, events);
        const parsed = parseInvariant(dialect, text, { runs: 5, maxEveryIndex: 0 });
        expect(conversation(parsed)).toEqual(conversation(events));
        expect(parsed.filter((event) => event.type === "error")).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

/** What a round trip must keep: the kinds, contents, calls and action specs, in order. */
function conversation(events: readonly ProtocolEvent[]): unknown[] {
  return events.flatMap((event) => {
    switch (event.type) {
      case "think":
      case "respond":
        return [{ type: event.type, content: event.content }];
      case "call":
        return [
          { type: "call", name: event.call.name, args: event.call.args, action: event.action },
        ];
      case "end":
        return [{ type: "end" }];
      default:
        return [];
    }
  });
}

const MARKERS: Record<Dialect, string[]> = {
  xml: [
    "<think>",
    "</think>",
    "<execute>",
    "</execute>",
    "<respond>",
    "</respond>",
    "<end>",
    "<results>",
  ],
  delimiter: ["§think:", "§call:", "§execute", "§respond:", "§end", "[SYSTEM:"],
  hermes: ["<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>"],
  action: [
    "<thought>",
    "</thought>",
    "<action",
    "</action>",
    "<response>",
    "</response>",
    "<results>",
  ],
};

/** Text full of near-markers, trimmed, containing none of the dialect's markers. */
function contentArbitrary(dialect: Dialect): fc.Arbitrary<string> {
  const pieces = [
    "a",
    "Z",
    " ",
    "\n",
    "<",
    ">",
    "/",
    "§",
    "[",
    "]",
    "think",
    "end",
    ":",
    '"',
    "\\",
    "é",
    "😀",
    "{",
    "}",
  ];
  return fc
    .array(fc.constantFrom(...pieces), { maxLength: 30 })
    .map((parts) => parts.join("").trim())
    .filter(
      (text) =>
        !MARKERS[dialect].some((marker) => text.includes(marker)) && !/§(execute|end)$/.test(text),
    );
}

const jsonValue = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom(
    "</execute>",
    "§execute",
    "</action>",
    "</tool_call>",
    'say "hi"',
    "a\\b",
    "line\nbreak",
  ),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

function turnArbitrary(dialect: Dialect): fc.Arbitrary<ProtocolEvent[]> {
  const base = { id: "x", timestamp: 0, turn: 0, span: { start: 0, end: 0 } };
  const text = (type: "think" | "respond") =>
    contentArbitrary(dialect).map((content): ProtocolEvent => ({ ...base, type, content }));
  const call = fc
    .record({
      name: fc.constantFrom("list", "read", "write", "search"),
      args: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, { maxKeys: 3 }),
    })
    .map(({ name, args }): ProtocolEvent => {
      const event: ProtocolEvent = { ...base, type: "call", call: { id: "c", name, args } };
      if (dialect === "action") event.action = { type: "tool", mode: "async", outputKey: "out" };
      return event;
    });
  // Hermes writes a response as bare text, so two in a row would read back as one: one at most.
  const middle = fc.array(fc.oneof(text("think"), call), { maxLength: 6 });
  const answer = fc.option(text("respond"), { nil: undefined });
  return fc.tuple(middle, answer, fc.boolean()).map(([events, respond, end]) => {
    const turn = [...events];
    // A bare-text response (hermes) cannot be empty: nothing would be written.
    const bare = dialect === "hermes" && respond?.type === "respond" && respond.content === "";
    if (respond !== undefined && !bare) turn.push(respond);
    if (end && dialect !== "action" && dialect !== "hermes")
      turn.push({ id: "e", timestamp: 0, type: "end" });
    let n = 0;
    for (const event of turn) if (event.type === "call") event.call.id = `a${n++}`;
    return turn;
  });
}
