/**
 * Malformed-input corpus for the `hermes` dialect (docs/README.md, docs/dialects/hermes.md): texts an open model
 * (Qwen, Hermes, …) could write, each run through every chunking by `parseInvariant`, with
 * the exact merged events expected (order, error codes, spans, calls) and no non-blank
 * character left uncovered. Spans are located in the case's own text, never written as
 * numbers. Hermes decisions pinned here: a call spans its whole `<tool_call>` block; the
 * `execute` comes from `end()` and spans the first through the last call block (errors
 * included); an unclosed `<tool_call>` runs nothing and does not make a batch.
 */
import { describe, expect, it } from "vitest";
import type { ParserErrorCode, ProtocolEvent, Span } from "../events";
import { mergePieces } from "../merge";
import { canonical, charsOf, feedChunks, parseInvariant, splitAt, uncovered } from "../testing";

type Row =
  | ["think" | "respond", string]
  | ["call", string, Record<string, unknown>, Span]
  | ["execute", Span]
  | ["error", ParserErrorCode, Span];

interface Locate {
  /** Exactly `needle` (its first occurrence at or after `after`). */
  of(needle: string, after?: number): Span;
  /** From `start` through the first `through` after it, both included. */
  from(start: string, through: string, after?: number): Span;
  /** From `start` to the end of the text: an unclosed block. */
  toEnd(start: string, after?: number): Span;
  /** The whole `<tool_call>…</tool_call>` block whose body starts with `body`. */
  call(body: string): Span;
  /** From the start of `first` to the end of `last` (an execute's span). */
  join(first: Span, last: Span): Span;
}

interface Case {
  name: string;
  text: string;
  expect: (at: Locate) => Row[];
}

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

function locate(text: string): Locate {
  const find = (needle: string, after = 0) => {
    const index = text.indexOf(needle, after);
    if (index < 0) throw new Error(`${JSON.stringify(needle)} is not in the case text`);
    return index;
  };
  return {
    of: (needle, after) => {
      const start = find(needle, after);
      return { start, end: start + needle.length };
    },
    from: (start, through, after) => {
      const begin = find(start, after);
      return { start: begin, end: find(through, begin + start.length) + through.length };
    },
    toEnd: (start, after) => ({ start: find(start, after), end: text.length }),
    call: (body) => {
      const start = find(`${OPEN}${body}`);
      return { start, end: find(CLOSE, start + OPEN.length + body.length) + CLOSE.length };
    },
    join: (first, last) => ({ start: first.start, end: last.end }),
  };
}

function rowOf(event: ProtocolEvent): Row {
  switch (event.type) {
    case "think":
    case "respond":
      return [event.type, event.content];
    case "call":
      return ["call", event.call.name, event.call.args, event.span];
    case "execute":
      return ["execute", event.span];
    case "error":
      return ["error", event.code as ParserErrorCode, event.span ?? { start: -1, end: -1 }];
    default:
      throw new Error(`The hermes parser emitted a ${event.type} event`);
  }
}

const LS = '{"name": "ls", "arguments": {}}';
const READ = '{"name": "read", "arguments": {"file": "a.txt"}}';
const block = (body: string) => `${OPEN}${body}${CLOSE}`;

/** A case whose text holds one call block with `body` that yields `code`, then the execute. */
function badBlock(name: string, body: string, code: ParserErrorCode): Case {
  return {
    name,
    text: `<think>Calling.</think>\n${block(body)}`,
    expect: (at) => [
      ["think", "Calling."],
      ["error", code, at.call(body)],
      ["execute", at.call(body)],
    ],
  };
}

const cases: Case[] = [
  // End of stream inside a block.
  {
    name: "unclosed think at end of stream",
    text: "<think>The user wants the weather. I should call get_weather",
    expect: (at) => [
      ["think", "The user wants the weather. I should call get_weather"],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },
  {
    name: "unclosed tool_call with complete JSON runs nothing and makes no batch",
    text: `${OPEN}\n${READ}\n`,
    expect: (at) => [["error", "unclosed_block", at.toEnd(OPEN)]],
  },
  {
    name: "bare <tool_call> as the last thing in the stream",
    text: `<think>Let me list the files.</think>\n${OPEN}`,
    expect: (at) => [
      ["think", "Let me list the files."],
      ["error", "unclosed_block", at.toEnd(OPEN)],
    ],
  },
  {
    name: "unclosed think swallows a tool_call: nothing runs",
    text: `<think>I need the files\n${block(LS)}`,
    expect: (at) => [
      ["think", `I need the files\n${block(LS)}`],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },
  {
    name: "a good call, then an unclosed one: the good one still forms the batch",
    text: `${block(LS)}\n${OPEN}{"name": "read", "arguments": {`,
    expect: (at) => [
      ["call", "ls", {}, at.call(LS)],
      ["error", "unclosed_block", at.toEnd(OPEN, 1)],
      ["execute", at.call(LS)],
    ],
  },
  {
    name: "unclosed tool_response at end of stream",
    text: 'Done.\n<tool_response>{"name": "ls", "content": "a.txt"',
    expect: (at) => [
      ["respond", "Done."],
      ["error", "unclosed_block", at.toEnd("<tool_response>")],
    ],
  },

  // Invalid JSON in a call block: one error for that block, the turn's batch still forms.
  badBlock("trailing comma", '{"name": "read", "arguments": {"file": "a.txt"},}', "invalid_json"),
  badBlock("single-quoted JSON", "{'name': 'ls', 'arguments': {}}", "invalid_json"),
  badBlock("unquoted key", '{"name": "ls", arguments: {}}', "invalid_json"),
  badBlock("empty block", "", "invalid_json"),
  badBlock("blank block", "\n  \n", "invalid_json"),
  badBlock("two objects in one block", `${LS}\n${READ}`, "invalid_json"),
  badBlock("text after the object", `${LS} thanks`, "invalid_json"),
  badBlock("Python literals", '{"name": "ls", "arguments": {"all": True}}', "invalid_json"),
  badBlock("a comment in the JSON", '{"name": "ls", // list\n "arguments": {}}', "invalid_json"),

  // Well-formed JSON of the wrong shape.
  badBlock("an array of calls (xml style)", `[${LS}]`, "invalid_call"),
  badBlock("a bare string", '"ls"', "invalid_call"),
  badBlock("name missing", '{"arguments": {"path": "."}}', "invalid_call"),
  badBlock("name empty", '{"name": "", "arguments": {}}', "invalid_call"),
  badBlock("name blank", '{"name": "  ", "arguments": {}}', "invalid_call"),
  badBlock("name a number", '{"name": 7, "arguments": {}}', "invalid_call"),
  badBlock("arguments missing", '{"name": "ls"}', "invalid_call"),
  badBlock("arguments an array", '{"name": "ls", "arguments": ["."]}', "invalid_call"),
  badBlock("arguments null", '{"name": "ls", "arguments": null}', "invalid_call"),
  badBlock("xml's args instead of arguments", '{"name": "ls", "args": {}}', "invalid_call"),
  badBlock(
    "OpenAI function wrapper",
    '{"type": "function", "function": {"name": "ls", "arguments": "{}"}}',
    "invalid_call",
  ),
  badBlock(
    "arguments a string that is not JSON",
    '{"name": "ls", "arguments": "path=."}',
    "invalid_call",
  ),
  badBlock(
    "arguments a string holding an array",
    '{"name": "ls", "arguments": "[1, 2]"}',
    "invalid_call",
  ),

  // Valid calls in awkward shapes.
  {
    name: "arguments as a JSON string holding an object (vLLM style)",
    text: block('{"name": "read", "arguments": "{\\"file\\": \\"a.txt\\"}"}'),
    expect: (at) => [
      ["call", "read", { file: "a.txt" }, at.from(OPEN, CLOSE)],
      ["execute", at.from(OPEN, CLOSE)],
    ],
  },
  {
    name: "extra fields beside name and arguments are ignored",
    text: block('{"id": "c1", "name": "ls", "arguments": {"path": "."}, "type": "function"}'),
    expect: (at) => [
      ["call", "ls", { path: "." }, at.from(OPEN, CLOSE)],
      ["execute", at.from(OPEN, CLOSE)],
    ],
  },
  {
    name: "</tool_call> inside a JSON string does not close the block",
    text: block('{"name": "write", "arguments": {"content": "a </tool_call> b"}}'),
    expect: (at) => [
      ["call", "write", { content: "a </tool_call> b" }, at.from(OPEN, `}}${CLOSE}`)],
      ["execute", at.from(OPEN, `}}${CLOSE}`)],
    ],
  },
  {
    name: "an escaped quote before </tool_call> inside a string",
    text: block(
      String.raw`{"name": "write", "arguments": {"content": "say \"</tool_call>\" now"}}`,
    ),
    expect: (at) => [
      ["call", "write", { content: 'say "</tool_call>" now' }, at.from(OPEN, `}}${CLOSE}`)],
      ["execute", at.from(OPEN, `}}${CLOSE}`)],
    ],
  },
  {
    name: "<think> and <tool_response> inside JSON strings are content",
    text: block('{"name": "write", "arguments": {"a": "<think>", "b": "<tool_response>"}}'),
    expect: (at) => [
      ["call", "write", { a: "<think>", b: "<tool_response>" }, at.from(OPEN, `}}${CLOSE}`)],
      ["execute", at.from(OPEN, `}}${CLOSE}`)],
    ],
  },
  {
    name: "an unterminated string swallowing </tool_call> recovers at the line break",
    text: `${OPEN}{"name": "x", "arguments": {"a": "oops}}${CLOSE}\nI will retry.`,
    expect: (at) => [
      ["error", "invalid_json", at.from(OPEN, CLOSE)],
      ["respond", "I will retry."],
      ["execute", at.from(OPEN, CLOSE)],
    ],
  },
  {
    name: "an unterminated string swallowing </tool_call> at the end of the stream",
    text: `${OPEN}{"name": "x", "arguments": {"a": "oops}}${CLOSE}`,
    expect: (at) => [
      ["error", "invalid_json", at.from(OPEN, CLOSE)],
      ["execute", at.from(OPEN, CLOSE)],
    ],
  },
  {
    name: "one bad call among good ones: the others still run",
    text: `${block(LS)}\n${block('{"name": "read", "arguments": []}')}\n${block(READ)}`,
    expect: (at) => [
      ["call", "ls", {}, at.call(LS)],
      ["error", "invalid_call", at.call('{"name": "read", "arguments": []}')],
      ["call", "read", { file: "a.txt" }, at.call(READ)],
      ["execute", at.join(at.call(LS), at.call(READ))],
    ],
  },
  {
    name: "the same call twice",
    text: `${block(LS)}${block(LS)}`,
    expect: (at) => [
      ["call", "ls", {}, at.call(LS)],
      ["call", "ls", {}, at.from(OPEN, CLOSE, 1)],
      ["execute", at.join(at.call(LS), at.from(OPEN, CLOSE, 1))],
    ],
  },
  {
    name: "CRLF line endings and emoji arguments",
    text: `<think>\r\nPlan 🗺️\r\n</think>\r\n${OPEN}\r\n{"name": "search", "arguments": {"q": "café 😀"}}\r\n${CLOSE}\r\n`,
    expect: (at) => [
      ["think", "Plan 🗺️"],
      ["call", "search", { q: "café 😀" }, at.from(OPEN, CLOSE)],
      ["execute", at.from(OPEN, CLOSE)],
    ],
  },

  // Results the model must never write.
  {
    name: "the model writes a <tool_response> itself",
    text: `${block(LS)}\n<tool_response>\n{"name": "ls", "content": "a.txt"}\n</tool_response>\nThere is a.txt.`,
    expect: (at) => [
      ["call", "ls", {}, at.call(LS)],
      ["error", "model_wrote_results", at.from("<tool_response>", "</tool_response>")],
      ["respond", "There is a.txt."],
      ["execute", at.call(LS)],
    ],
  },
  {
    name: "a forged <tool_response> before any call is reported and runs nothing",
    text: '<tool_response>{"name": "ls", "content": "x"}</tool_response>',
    expect: (at) => [
      ["error", "model_wrote_results", at.from("<tool_response>", "</tool_response>")],
    ],
  },

  // Text that only looks like markers is ordinary response text.
  {
    name: "lookalike tags are text",
    text: "Use <tool_calls>, <TOOL_CALL>, < tool_call > and <thinking>ok</thinking>.",
    expect: () => [
      ["respond", "Use <tool_calls>, <TOOL_CALL>, < tool_call > and <thinking>ok</thinking>."],
    ],
  },
  {
    name: "stray closing markers outside any block are text",
    text: "Answer </tool_call> and </think> and </tool_response>.",
    expect: () => [["respond", "Answer </tool_call> and </think> and </tool_response>."]],
  },
  {
    name: "<think> inside think is content",
    text: "<think>a <think> b</think>",
    expect: () => [["think", "a <think> b"]],
  },
  {
    name: "a partial marker at the end of the stream is text",
    text: "Almost <tool_",
    expect: () => [["respond", "Almost <tool_"]],
  },
  {
    name: "a lone < at the end of the stream is text",
    text: "a <",
    expect: () => [["respond", "a <"]],
  },
  {
    name: "an empty think block",
    text: "<think></think>Hi.",
    expect: () => [
      ["think", ""],
      ["respond", "Hi."],
    ],
  },
  {
    name: "text before, between and after calls: separate responses",
    text: `First.\n${block(LS)}\nThen.\n${block(READ)}\nLast.`,
    expect: (at) => [
      ["respond", "First."],
      ["call", "ls", {}, at.call(LS)],
      ["respond", "Then."],
      ["call", "read", { file: "a.txt" }, at.call(READ)],
      ["respond", "Last."],
      ["execute", at.join(at.call(LS), at.call(READ))],
    ],
  },
  {
    name: "think after the calls: the execute still comes at the end",
    text: `${block(LS)}\n<think>now wait</think>`,
    expect: (at) => [
      ["call", "ls", {}, at.call(LS)],
      ["think", "now wait"],
      ["execute", at.call(LS)],
    ],
  },
  {
    name: "no calls: an answer and no execute",
    text: "<think>Easy.</think>\n\nIt is **4**.",
    expect: () => [
      ["think", "Easy."],
      ["respond", "It is **4**."],
    ],
  },
  {
    name: "whitespace only between blocks is dropped",
    text: `<think>x</think>\n \t\n${block(LS)}\n\n`,
    expect: (at) => [
      ["think", "x"],
      ["call", "ls", {}, at.call(LS)],
      ["execute", at.call(LS)],
    ],
  },
];

describe("hermes corpus: malformed and awkward model output", () => {
  it("has at least 40 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const events = parseInvariant("hermes", testCase.text, { runs: 30 });
      expect(events.map(rowOf)).toEqual(testCase.expect(locate(testCase.text)));
      expect(uncovered(testCase.text, events)).toEqual([]);
    });
  }
});

describe("hermes corpus: a block over maxBlockBytes", () => {
  const options = { maxBlockBytes: 1000 };
  const big = "x".repeat(1200);
  const text = `${block(`{"name": "write", "arguments": {"content": "${big}"}}`)}\n${block(LS)}\nafter`;
  const at = locate(text);
  const first = at.from(OPEN, CLOSE);

  it("becomes block_too_large, runs nothing, and the next call still runs", () => {
    const events = mergePieces(feedChunks("hermes", [text], options));
    expect(events.map(rowOf)).toEqual([
      ["error", "block_too_large", first],
      ["call", "ls", {}, at.call(LS)],
      ["respond", "after"],
      ["execute", at.join(first, at.call(LS))],
    ]);
    expect(uncovered(text, events)).toEqual([]);
  });

  it("gives the same events for every chunking", () => {
    const whole = JSON.stringify(canonical(feedChunks("hermes", [text], options)));
    const splits = [charsOf(text), ...Array.from(text, (_, i) => splitAt(text, [i]))];
    for (const chunks of splits) {
      expect(JSON.stringify(canonical(feedChunks("hermes", chunks, options)))).toBe(whole);
    }
  });
});
