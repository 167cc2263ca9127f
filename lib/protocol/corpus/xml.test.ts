/**
 * Malformed-input corpus for the `xml` dialect (docs/README.md, docs/dialects/xml.md): texts a real model could
 * write, each run through every chunking by `parseInvariant`, with the exact merged events
 * expected (order, error codes, spans, calls) and no non-blank character left uncovered.
 * Spans are located in the case's own text with `indexOf`, never written as numbers.
 */
import { describe, expect, it } from "vitest";
import type { ParserErrorCode, ProtocolEvent, Span } from "../events";
import { mergePieces } from "../merge";
import { canonical, charsOf, feedChunks, parseInvariant, splitAt, uncovered } from "../testing";

/** One merged event in compact form; the table lists every event a case must produce. */
type Row =
  | ["think" | "respond", string]
  | ["call", string, Record<string, unknown>, Span]
  | ["execute", Span]
  | ["error", ParserErrorCode, Span]
  | ["end", Span];

interface Locate {
  /** Exactly `needle` (its first occurrence at or after `after`). */
  of(needle: string, after?: number): Span;
  /** From `start` through the first `through` after it, both included. */
  from(start: string, through: string, after?: number): Span;
  /** From `start` to the end of the text: an unclosed block. */
  toEnd(start: string, after?: number): Span;
}

interface Case {
  name: string;
  text: string;
  expect: (at: Locate) => Row[];
}

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
    case "end":
      return ["end", event.span ?? { start: -1, end: -1 }];
    default:
      throw new Error(`The xml parser emitted a ${event.type} event`);
  }
}

const LS = '{"name": "ls", "args": {}}';

const cases: Case[] = [
  // End of stream inside a block.
  {
    name: "unclosed think at end of stream",
    text: "<think>The user wants the config. I should read config.json first",
    expect: (at) => [
      ["think", "The user wants the config. I should read config.json first"],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },
  {
    name: "unclosed respond at end of stream",
    text: "<think>done</think>\n<respond>The answer is 42, because",
    expect: (at) => [
      ["think", "done"],
      ["respond", "The answer is 42, because"],
      ["error", "unclosed_block", at.toEnd("<respond>")],
    ],
  },
  {
    name: "unclosed execute with complete JSON runs nothing",
    text: '<execute>\n[{"name": "read", "args": {"file": "a.txt"}}]\n',
    expect: (at) => [["error", "unclosed_block", at.toEnd("<execute>")]],
  },
  {
    name: "bare <execute> as the last thing in the stream",
    text: "<think>Let me list the files.</think>\n<execute>",
    expect: (at) => [
      ["think", "Let me list the files."],
      ["error", "unclosed_block", at.toEnd("<execute>")],
    ],
  },
  {
    name: "unclosed think swallows an execute block: nothing runs",
    text: `<think>I need the files\n<execute>[${LS}]</execute>`,
    expect: (at) => [
      ["think", `I need the files\n<execute>[${LS}]</execute>`],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },
  {
    name: "unclosed think ending in trailing whitespace and an emoji",
    text: "<think>almost there 😀  \n ",
    expect: (at) => [
      ["think", "almost there 😀"],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },

  // Invalid JSON in execute.
  {
    name: "trailing comma",
    text: '<execute>\n[\n  {"name": "read", "args": {"file": "a.txt"}},\n]\n</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "single quotes",
    text: "<execute>[{'name': 'read', 'args': {'file': 'a.txt'}}]</execute>",
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "unquoted keys",
    text: '<execute>[{name: "read", args: {file: "a.txt"}}]</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "truncated JSON closed by the marker",
    text: '<execute>[{"name": "read", "args": {"file": "a.txt"}</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "empty execute body",
    text: "<execute></execute>",
    expect: (at) => [
      ["error", "invalid_json", at.of("<execute></execute>")],
      ["execute", at.of("<execute></execute>")],
    ],
  },
  {
    name: "a comment before the array",
    text: `<execute>\n// list the files\n[${LS}]\n</execute>`,
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "a markdown code fence inside execute",
    text: `<execute>\n\`\`\`json\n[${LS}]\n\`\`\`\n</execute>`,
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "two arrays back to back",
    text: '<execute>[{"name": "a", "args": {}}][{"name": "b", "args": {}}]</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "an unquoted expression as a value",
    text: '<execute>[{"name": "calc", "args": {"expr": 1 < 2}}]</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },

  // Valid JSON, wrong shape.
  {
    name: "a single object instead of an array",
    text: '<execute>{"name": "read", "args": {"file": "a.txt"}}</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "a bare string instead of an array",
    text: '<execute>"ls"</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "element missing name",
    text: '<execute>[{"args": {"file": "a.txt"}}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "element with an empty name",
    text: '<execute>[{"name": "", "args": {}}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "name is not a string",
    text: '<execute>[{"name": 42, "args": {}}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "args is an array, not an object",
    text: '<execute>[{"name": "read", "args": ["a.txt"]}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "args missing",
    text: '<execute>[{"name": "ls"}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "args is null",
    text: '<execute>[{"name": "ls", "args": null}]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "element is a tool name string",
    text: '<execute>["read"]</execute>',
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "one bad element: no call of the batch runs",
    text: `<execute>[${LS}, {"name": "rm"}]</execute>`,
    expect: (at) => [
      ["error", "invalid_call", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },

  // The closing marker inside JSON strings.
  {
    name: "</execute> inside a JSON string",
    text: '<execute>[{"name": "write", "args": {"content": "</execute>"}}]</execute>',
    expect: (at) => [
      ["call", "write", { content: "</execute>" }, at.from('{"name"', "}}")],
      ["execute", at.from("<execute>", "}]</execute>")],
    ],
  },
  {
    name: "</execute> after an escaped quote inside a string",
    text: String.raw`<execute>[{"name": "write", "args": {"content": "say \"</execute>\" ok"}}]</execute>`,
    expect: (at) => [
      ["call", "write", { content: 'say "</execute>" ok' }, at.from('{"name"', 'ok"}}')],
      ["execute", at.from("<execute>", "}]</execute>")],
    ],
  },
  {
    name: "escaped backslash, then an escaped quote, then </execute> in one string",
    text: String.raw`<execute>[{"name": "w", "args": {"c": "\\\"</execute>"}}]</execute>`,
    expect: (at) => [
      ["call", "w", { c: '\\"</execute>' }, at.from('{"name"', "}}")],
      ["execute", at.from("<execute>", "}]</execute>")],
    ],
  },
  {
    name: "an escaped backslash ends the string: the next call is still parsed",
    text: String.raw`<execute>[{"name": "w", "args": {"c": "a\\"}}, {"name": "ls", "args": {}}]</execute>`,
    expect: (at) => [
      ["call", "w", { c: "a\\" }, at.from('{"name": "w"', "}}")],
      ["call", "ls", {}, at.of(LS)],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "HTML and foreign closing tags in args",
    text: '<execute>[{"name": "write", "args": {"file": "index.html", "content": "<html><body>Hello</body></html>", "note": "Hello </write> world"}}]</execute>',
    expect: (at) => [
      [
        "call",
        "write",
        {
          file: "index.html",
          content: "<html><body>Hello</body></html>",
          note: "Hello </write> world",
        },
        at.from('{"name"', 'world"}}'),
      ],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "brackets inside strings do not confuse element spans",
    text: '<execute>\n[\n  {"name": "grep", "args": {"pattern": "[a-z]+}", "paths": ["src", "lib"]}},\n  {"name": "read", "args": {"file": "b.txt", "range": [1, 20]}}\n]\n</execute>',
    expect: (at) => [
      [
        "call",
        "grep",
        { pattern: "[a-z]+}", paths: ["src", "lib"] },
        at.from('{"name": "grep"', "]}}"),
      ],
      ["call", "read", { file: "b.txt", range: [1, 20] }, at.from('{"name": "read"', "]}}")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },

  // Recovery: a string that swallowed </execute>.
  {
    name: "unterminated string swallows </execute>, then a newline: recovery",
    text: '<execute>[{"name": "write", "args": {"content": "oops</execute>\n<respond>I wrote the file.</respond>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
      ["respond", "I wrote the file."],
    ],
  },
  {
    name: "recovery with CRLF, then a valid execute block runs",
    text: `<execute>[{"name": "write", "args": {"content": "oops</execute>\r\n<execute>[${LS}]</execute>`,
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
      ["call", "ls", {}, at.of(LS)],
      ["execute", at.from("<execute>[{", "</execute>", at.of("\r\n").end)],
    ],
  },
  {
    name: "unterminated string swallows </execute> at the very end of the stream",
    text: '<execute>[{"name": "write", "args": {"path": "notes.md", "content": "draft</execute>',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "unterminated string swallows </execute>, text follows on the same line, stream ends",
    text: '<execute>[{"name": "write", "args": {"content": "draft</execute> Let me know if that works.',
    expect: (at) => [
      ["error", "invalid_json", at.from("<execute>", "</execute>")],
      ["execute", at.from("<execute>", "</execute>")],
      ["respond", "Let me know if that works."],
    ],
  },
  {
    name: "a string swallows </execute> but closes later: the block is still open",
    text: '<execute>[{"name": "w", "args": {"c": "x</execute>"}}]',
    expect: (at) => [["error", "unclosed_block", at.toEnd("<execute>")]],
  },

  // The model writing results.
  {
    name: "model writes <results>…</results>",
    text: '<think>I should check the file.</think>\n<results>[{"tool": "read", "status": "success", "content": "hi"}]</results>\n<respond>The file says hi.</respond>',
    expect: (at) => [
      ["think", "I should check the file."],
      ["error", "model_wrote_results", at.from("<results>", "</results>")],
      ["respond", "The file says hi."],
    ],
  },
  {
    name: "model invents results after its own execute block",
    text: `<execute>[${LS}]</execute>\nLet me wait for the results.\n<results>[{"tool": "ls", "status": "success", "content": "a.txt"}]</results>\nThe folder has a.txt.\n<end>`,
    expect: (at) => [
      ["call", "ls", {}, at.of(LS)],
      ["execute", at.from("<execute>", "</execute>")],
      ["respond", "Let me wait for the results."],
      ["error", "model_wrote_results", at.from("<results>", "</results>")],
      ["respond", "The folder has a.txt."],
      ["end", at.of("<end>")],
    ],
  },
  {
    name: "an execute block inside <results> is not executed",
    text: '<results>done <execute>[{"name": "rm", "args": {"path": "/"}}]</execute></results>',
    expect: (at) => [["error", "model_wrote_results", at.from("<results>", "</results>")]],
  },
  {
    name: "unclosed <results> at end of stream",
    text: '<results>[{"tool": "ls", "status": "success"}]',
    expect: (at) => [["error", "unclosed_block", at.toEnd("<results>")]],
  },

  // Text between and around blocks.
  {
    name: "stray text between blocks is its own respond",
    text: `<think>plan</think>\nOkay, let me look.\n<execute>[${LS}]</execute>`,
    expect: (at) => [
      ["think", "plan"],
      ["respond", "Okay, let me look."],
      ["call", "ls", {}, at.of(LS)],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "text before, between and after blocks: one respond per run",
    text: "Sure.\n<think>check</think>\nStill here.\n<respond>done</respond>\ntrailing words",
    expect: () => [
      ["respond", "Sure."],
      ["think", "check"],
      ["respond", "Still here."],
      ["respond", "done"],
      ["respond", "trailing words"],
    ],
  },
  {
    name: "stray closing tags outside a block are text",
    text: "All done. </think> </execute>",
    expect: () => [["respond", "All done. </think> </execute>"]],
  },
  {
    name: "whitespace-only text between blocks is dropped",
    text: "<think>x</think>\n\n   \n<respond>y</respond>\n\n",
    expect: () => [
      ["think", "x"],
      ["respond", "y"],
    ],
  },
  {
    name: "two respond blocks are both shown (no duplicate rule in xml)",
    text: "<respond>one</respond>\n<respond>two</respond>",
    expect: () => [
      ["respond", "one"],
      ["respond", "two"],
    ],
  },

  // Half markers at the end of the stream.
  {
    name: "half opening marker <thi at end of stream",
    text: "<think>plan</think>\n<thi",
    expect: () => [
      ["think", "plan"],
      ["respond", "<thi"],
    ],
  },
  {
    name: "a lone < at end of stream",
    text: "<respond>ok</respond>\n<",
    expect: () => [
      ["respond", "ok"],
      ["respond", "<"],
    ],
  },
  {
    name: "half closing marker </execu at end of stream",
    text: `<execute>[${LS}]</execu`,
    expect: (at) => [["error", "unclosed_block", at.toEnd("<execute>")]],
  },
  {
    name: "<execute without > at end of stream",
    text: "<respond>Listing now.</respond>\n<execute",
    expect: () => [
      ["respond", "Listing now."],
      ["respond", "<execute"],
    ],
  },
  {
    name: "half closing marker </thi inside think at end of stream",
    text: "<think>abc</thi",
    expect: (at) => [
      ["think", "abc</thi"],
      ["error", "unclosed_block", at.toEnd("<think>")],
    ],
  },

  // Astral characters, CJK and CRLF.
  {
    name: "emoji and CJK in think and in JSON args",
    text: '<think>🤔 思考中… 𝒳 test 😀</think><execute>[{"name": "say", "args": {"text": "你好 😀 🎉"}}]</execute>',
    expect: (at) => [
      ["think", "🤔 思考中… 𝒳 test 😀"],
      ["call", "say", { text: "你好 😀 🎉" }, at.from('{"name"', "}}")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "emoji right against the markers and in a JSON key",
    text: '<respond>😀</respond><execute>[{"name": "tag", "args": {"🏷️": "日本語"}}]</execute>',
    expect: (at) => [
      ["respond", "😀"],
      ["call", "tag", { "🏷️": "日本語" }, at.from('{"name"', "}}")],
      ["execute", at.from("<execute>", "</execute>")],
    ],
  },
  {
    name: "CRLF line endings throughout",
    text: `<think>line one\r\nline two\r\n</think>\r\n<execute>\r\n[${LS}]\r\n</execute>\r\n<end>\r\n`,
    expect: (at) => [
      ["think", "line one\r\nline two"],
      ["call", "ls", {}, at.of(LS)],
      ["execute", at.from("<execute>", "</execute>")],
      ["end", at.of("<end>")],
    ],
  },

  // Lookalike tags are text.
  {
    name: "<thinking> is text",
    text: "<thinking>hmm, which file?</thinking>",
    expect: () => [["respond", "<thinking>hmm, which file?</thinking>"]],
  },
  {
    name: "<THINK> is text",
    text: "<THINK>loud thoughts</THINK>",
    expect: () => [["respond", "<THINK>loud thoughts</THINK>"]],
  },
  {
    name: "< think > with spaces is text",
    text: "< think >spaced</ think >",
    expect: () => [["respond", "< think >spaced</ think >"]],
  },
  {
    name: "self-closing <think/> is text",
    text: "<think/>\n<respond>Nothing to think about.</respond>",
    expect: () => [
      ["respond", "<think/>"],
      ["respond", "Nothing to think about."],
    ],
  },
  {
    name: "<executes> and <execute > are text; nothing runs",
    text: `<think>x</think>\n<executes>[${LS}]</executes>\n<execute >[${LS}]</execute>`,
    expect: () => [
      ["think", "x"],
      ["respond", `<executes>[${LS}]</executes>\n<execute >[${LS}]</execute>`],
    ],
  },

  // Markers inside text blocks.
  {
    name: "nested <think> inside think: the first </think> closes",
    text: "<think>outer <think>inner</think> tail</think>",
    expect: () => [
      ["think", "outer <think>inner"],
      ["respond", "tail</think>"],
    ],
  },
  {
    name: "respond markers inside think are content",
    text: "<think>what if I write </respond> or <respond>hi</think>",
    expect: () => [["think", "what if I write </respond> or <respond>hi"]],
  },
  {
    name: "an execute block inside think does not run",
    text: `<think>I will call <execute>[${LS}]</execute> later</think>`,
    expect: () => [["think", `I will call <execute>[${LS}]</execute> later`]],
  },
  {
    name: "an execute block and <end> inside respond do not run",
    text: `<respond>Run <execute>[${LS}]</execute> yourself, then say <end>.</respond>`,
    expect: () => [["respond", `Run <execute>[${LS}]</execute> yourself, then say <end>.`]],
  },

  // <end>, empty blocks, comparisons, HTML.
  {
    name: "<end> followed by more text",
    text: "<respond>done</respond><end>\nAnything else I can help with?",
    expect: (at) => [
      ["respond", "done"],
      ["end", at.of("<end>")],
      ["respond", "Anything else I can help with?"],
    ],
  },
  {
    name: "empty think and an empty execute batch",
    text: "<think></think><execute>[]</execute>",
    expect: (at) => [
      ["think", ""],
      ["execute", at.of("<execute>[]</execute>")],
    ],
  },
  {
    name: "empty respond and whitespace-only think",
    text: "<think>   \n  </think><respond></respond>",
    expect: () => [
      ["think", ""],
      ["respond", ""],
    ],
  },
  {
    name: "a < b comparisons in respond text",
    text: "<respond>Use a < b and b > c; if x<y then 1 <2, and 1 <= 2, x<-y, a<b>c <</respond>",
    expect: () => [["respond", "Use a < b and b > c; if x<y then 1 <2, and 1 <= 2, x<-y, a<b>c <"]],
  },
  {
    name: "comparisons and a doubled < right before a marker outside blocks",
    text: "if a < b then x <<think>compare</think>",
    expect: () => [
      ["respond", "if a < b then x <"],
      ["think", "compare"],
    ],
  },
  {
    name: "HTML in respond text",
    text: '<respond><p>Hello <b>world</b></p><br/><a href="x">link</a></respond>',
    expect: () => [["respond", '<p>Hello <b>world</b></p><br/><a href="x">link</a>']],
  },
  {
    name: "two execute blocks in one turn",
    text: '<execute>[{"name": "a", "args": {}}]</execute>\n<execute>[{"name": "b", "args": {"x": 1}}]</execute>',
    expect: (at) => [
      ["call", "a", {}, at.of('{"name": "a", "args": {}}')],
      ["execute", at.from("<execute>", "</execute>")],
      ["call", "b", { x: 1 }, at.of('{"name": "b", "args": {"x": 1}}')],
      ["execute", at.from('<execute>[{"name": "b"', "</execute>")],
    ],
  },
];

describe("xml corpus: malformed and awkward model output", () => {
  it("has at least 45 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const events = parseInvariant("xml", testCase.text, { runs: 30 });
      expect(events.map(rowOf)).toEqual(testCase.expect(locate(testCase.text)));
      expect(uncovered(testCase.text, events)).toEqual([]);
    });
  }

  it("a backslash escape split across chunks still hides </execute>", () => {
    const text = String.raw`<execute>[{"name": "w", "args": {"c": "\"</execute>"}}]</execute>`;
    const backslash = text.indexOf("\\");
    const insideMarker = text.indexOf("</execute>") + 5;
    const chunks = splitAt(text, [backslash + 1, insideMarker]);
    expect(chunks[0]?.endsWith("\\")).toBe(true);
    const events = mergePieces(feedChunks("xml", chunks));
    expect(events.map(rowOf)).toEqual([
      ["call", "w", { c: '"</execute>' }, locate(text).from('{"name"', "}}")],
      ["execute", locate(text).from("<execute>", "}]</execute>")],
    ]);
  });
});

describe("xml corpus: a block over maxBlockBytes", () => {
  const options = { maxBlockBytes: 1000 };
  const big = "x".repeat(1200);
  const text = `<think>Writing the report.</think>\n<execute>[{"name": "write", "args": {"content": "${big}"}}]</execute>\n<respond>after</respond>`;
  const at = locate(text);
  const block = at.from("<execute>", "</execute>");

  it("becomes block_too_large, runs nothing, and parsing continues", () => {
    const events = mergePieces(feedChunks("xml", [text], options));
    const errors = events.filter((event) => event.type === "error");
    expect(errors[0]?.code).toBe("block_too_large");
    expect(errors[0]?.span?.start).toBe(block.start);
    expect(events.filter((event) => event.type === "call")).toEqual([]);
    expect(events.filter((event) => event.type === "execute").map(rowOf)).toEqual([
      ["execute", block],
    ]);
    expect(events.filter((event) => event.type !== "error").map(rowOf)).toEqual([
      ["think", "Writing the report."],
      ["execute", block],
      ["respond", "after"],
    ]);
    expect(uncovered(text, events)).toEqual([]);
  });

  it("is reported once, as block_too_large only", () => {
    const events = mergePieces(feedChunks("xml", [text], options));
    const codes = events.flatMap((event) => (event.type === "error" ? [event.code] : []));
    expect(codes).toEqual(["block_too_large"]);
  });

  it("gives the same events for every chunking", () => {
    const whole = JSON.stringify(canonical(feedChunks("xml", [text], options)));
    const splits = [charsOf(text), ...Array.from(text, (_, i) => splitAt(text, [i]))];
    for (const chunks of splits) {
      expect(JSON.stringify(canonical(feedChunks("xml", chunks, options)))).toBe(whole);
    }
  });
});
