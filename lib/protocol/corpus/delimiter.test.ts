/**
 * Malformed-input corpus for the `delimiter` dialect (docs/dialects/delimiter.md). Every case is
 * a model text run through `parseInvariant`, so each one is also checked for chunk
 * invariance; the table then pins the exact errors (codes, spans, raw text), the calls,
 * the executes, the think/respond contents and that no character is lost.
 */
import { describe, expect, it } from "vitest";
import {
  createParser,
  type ErrorEvent,
  mergePieces,
  type ParserErrorCode,
  type ProtocolEvent,
  parseAll,
  type Span,
} from "../index";
import { createUtf8Decoder } from "../stream";
import { canonical, charsOf, feedChunks, parseInvariant, splitAt, uncovered } from "../testing";

interface ExpectedError {
  code: ParserErrorCode;
  span: Span;
  /** Checked when given: the offending text the error carries. */
  raw?: string;
}

interface Expected {
  errors: ExpectedError[];
  calls: { name: string; args: Record<string, unknown>; span?: Span }[];
  executes: number;
  /** Checked when given: every think/respond block, in order, as [type, content]. */
  blocks?: [type: "think" | "respond", content: string][];
}

interface Case {
  name: string;
  text: string;
  expect: (text: string) => Expected;
}

/** Span of the first `needle` in `text` at or after `from`. */
function spanOf(text: string, needle: string, from = 0): Span {
  const start = text.indexOf(needle, from);
  if (start < 0) throw new Error(`${JSON.stringify(needle)} is not in the case text`);
  return { start, end: start + needle.length };
}

/** From the first `first` to the end of the first `last` after it. */
function spanFrom(text: string, first: string, last: string): Span {
  const start = spanOf(text, first).start;
  return { start, end: spanOf(text, last, start).end };
}

/** From the first `first` to the end of the text. */
function spanToEnd(text: string, first: string): Span {
  return { start: spanOf(text, first).start, end: text.length };
}

const none: Expected = { errors: [], calls: [], executes: 0 };

function checkEvents(text: string, events: readonly ProtocolEvent[], want: Expected): void {
  const errors = events.filter((event): event is ErrorEvent => event.type === "error");
  expect(errors.map(({ code, span }) => ({ code, span }))).toEqual(
    want.errors.map(({ code, span }) => ({ code, span })),
  );
  want.errors.forEach((error, i) => {
    if (error.raw !== undefined) expect(errors[i]?.raw).toBe(error.raw);
  });
  const calls = events.flatMap((event) => (event.type === "call" ? [event] : []));
  expect(calls.map(({ call }) => ({ name: call.name, args: call.args }))).toEqual(
    want.calls.map(({ name, args }) => ({ name, args })),
  );
  want.calls.forEach((call, i) => {
    if (call.span !== undefined) expect(calls[i]?.span).toEqual(call.span);
  });
  expect(events.filter((event) => event.type === "execute")).toHaveLength(want.executes);
  if (want.blocks !== undefined) {
    const blocks = events.flatMap((event) =>
      event.type === "think" || event.type === "respond" ? [[event.type, event.content]] : [],
    );
    expect(blocks).toEqual(want.blocks);
  }
  expect(uncovered(text, events)).toEqual([]);
}

const invalidJson: Case[] = [
  {
    name: "trailing comma in args",
    text: '§think: Read it.\n§call: {"name": "file_read", "args": {"file": "main.py",}}\n§execute\n',
    expect: (t) => ({
      errors: [
        {
          code: "invalid_call",
          span: spanFrom(t, "§call:", ",}}"),
          raw: '{"name": "file_read", "args": {"file": "main.py",}}',
        },
      ],
      calls: [],
      executes: 1,
      blocks: [["think", "Read it."]],
    }),
  },
  {
    name: "single-quoted JSON",
    text: "§call: {'name': 'file_list', 'args': {'path': '.'}}\n§execute",
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "'.'}}") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "truncated JSON (missing closing brace) before §execute",
    text: '§call: {"name": "file_read", "args": {"file": "config.json"}\n§execute\n',
    expect: (t) => ({
      errors: [
        {
          code: "invalid_call",
          span: spanFrom(t, "§call:", '"}'),
          raw: '{"name": "file_read", "args": {"file": "config.json"}',
        },
      ],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "JSON cut off by the end of the stream",
    text: '§think: Checking.\n§call: {"name": "file_read", "args": {"fi',
    expect: (t) => ({
      // An invalid call is reported once; it is not also a call_without_execute.
      errors: [{ code: "invalid_call", span: spanToEnd(t, "§call:") }],
      calls: [],
      executes: 0,
      blocks: [["think", "Checking."]],
    }),
  },
  {
    name: "plain words instead of JSON",
    text: "§call: read the file main.py please\n§execute",
    expect: (t) => ({
      errors: [
        {
          code: "invalid_call",
          span: spanFrom(t, "§call:", "please"),
          raw: "read the file main.py please",
        },
      ],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "unquoted keys (JavaScript object literal)",
    text: '§call: {name: "file_list", args: {path: "."}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"."}}') }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "Python literal True",
    text: '§call: {"name": "search", "args": {"query": "x", "exact": True}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "True}}") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "JSON in a markdown fence",
    text: '§call: ```json\n{"name": "file_list", "args": {"path": "."}}\n```\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "}}\n```") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "two JSON objects in one §call:",
    text: '§call: {"name": "a", "args": {}} {"name": "b", "args": {}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"b", "args": {}}') }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "prose between the JSON and §execute belongs to the call's content",
    text: '§call: {"name": "file_list", "args": {"path": "."}}\nRunning it now.\n§execute',
    expect: (t) => ({
      errors: [
        {
          code: "invalid_call",
          span: spanFrom(t, "§call:", "now."),
          raw: '{"name": "file_list", "args": {"path": "."}}\nRunning it now.',
        },
      ],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "empty §call: right before §execute",
    text: "§call:\n§execute",
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanOf(t, "§call:"), raw: "" }],
      calls: [],
      executes: 1,
    }),
  },
];

const wrongShape: Case[] = [
  {
    name: "no name",
    text: '§call: {"args": {"file": "main.py"}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"}}') }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "args is an array",
    text: '§call: {"name": "file_read", "args": ["main.py"]}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"]}') }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "args missing",
    text: '§call: {"name": "file_list"}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"}') }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "name is a number",
    text: '§call: {"name": 7, "args": {}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "{}}") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "empty name",
    text: '§call: {"name": "", "args": {}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "{}}") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "an xml-style array of calls",
    text: '§call: [{"name": "file_list", "args": {"path": "."}}]\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "}}]") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "a bare JSON string",
    text: '§call: "file_list"\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanOf(t, '§call: "file_list"'), raw: '"file_list"' }],
      calls: [],
      executes: 1,
    }),
  },
];

const jsonAware: Case[] = [
  {
    name: "JSON call spanning several lines",
    text: [
      "§think: Write the config.",
      "§call: {",
      '  "name": "file_write",',
      '  "args": {',
      '    "file": "config.json",',
      '    "content": "{\\"debug\\": true}"',
      "  }",
      "}",
      "§execute",
      "",
    ].join("\n"),
    expect: (t) => ({
      errors: [],
      calls: [
        {
          name: "file_write",
          args: { file: "config.json", content: '{"debug": true}' },
          span: spanFrom(t, "§call:", "  }\n}"),
        },
      ],
      executes: 1,
      blocks: [["think", "Write the config."]],
    }),
  },
  {
    name: "§execute inside a JSON string is content",
    text: '§call: {"name": "note", "args": {"text": "then type §execute to run"}}\n§execute',
    expect: (t) => ({
      errors: [],
      calls: [
        {
          name: "note",
          args: { text: "then type §execute to run" },
          span: spanFrom(t, "§call:", 'run"}}'),
        },
      ],
      executes: 1,
    }),
  },
  {
    name: "escaped quotes before a marker inside a JSON string",
    text: '§call: {"name": "echo", "args": {"text": "say \\"hi\\" then §execute and §end"}}\n§execute',
    expect: () => ({
      errors: [],
      calls: [{ name: "echo", args: { text: 'say "hi" then §execute and §end' } }],
      executes: 1,
    }),
  },
  {
    name: "§respond: and [SYSTEM: inside JSON strings are content",
    text: '§call: {"name": "echo", "args": {"a": "§respond: x", "b": "[SYSTEM: y]"}}\n§execute',
    expect: () => ({
      errors: [],
      calls: [{ name: "echo", args: { a: "§respond: x", b: "[SYSTEM: y]" } }],
      executes: 1,
    }),
  },
  {
    name: "escaped backslash ends the string, so the next marker closes the call",
    text: '§call: {"name": "dir_list", "args": {"path": "C:\\\\"}} §execute',
    expect: (t) => ({
      errors: [],
      calls: [{ name: "dir_list", args: { path: "C:\\" }, span: spanFrom(t, "§call:", '"}}') }],
      executes: 1,
    }),
  },
  {
    name: "unterminated string swallows §execute, then a newline: recovered",
    text: '§call: {"name": "shell", "args": {"cmd": "echo oops §execute\n§respond: Ran it.\n§end',
    expect: (t) => ({
      errors: [
        {
          code: "invalid_call",
          span: spanFrom(t, "§call:", '"echo oops'),
          raw: '{"name": "shell", "args": {"cmd": "echo oops',
        },
      ],
      calls: [],
      executes: 1,
      blocks: [["respond", "Ran it."]],
    }),
  },
  {
    name: "unterminated string swallows §execute with CRLF after it: recovered",
    text: '§call: {"name": "shell", "args": {"cmd": "ls §execute\r\n§respond: ok\r\n§end',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"ls') }],
      calls: [],
      executes: 1,
      blocks: [["respond", "ok"]],
    }),
  },
  {
    name: "unterminated string swallows §respond:, then a newline: recovered",
    text: '§call: {"name": "note", "args": {"text": "draft §respond: Saved the note.\n§end',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", '"draft') }],
      calls: [],
      executes: 0,
      blocks: [["respond", "Saved the note."]],
    }),
  },
  {
    name: "unterminated string ends the stream right at §execute: recovered",
    text: '§call: {"name": "note", "args": {"text": "remember to §execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "to") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "unterminated string swallows §execute and more text, then the stream ends: recovered",
    text: '§call: {"name": "note", "args": {"text": "remember to §execute §respond: Done.',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "to") }],
      calls: [],
      executes: 1,
      blocks: [["respond", "Done."]],
    }),
  },
  {
    name: "unterminated string swallows §execute, trailing space, end of stream: recovered",
    text: '§call: {"name": "note", "args": {"text": "remember to §execute ',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, "§call:", "to") }],
      calls: [],
      executes: 1,
    }),
  },
];

const batches: Case[] = [
  {
    name: "a §call never followed by §execute",
    text: '§think: Look first.\n§call: {"name": "file_list", "args": {"path": "."}}\n§respond: Listing files.\n§end',
    expect: (t) => {
      const call = spanFrom(t, "§call:", '"."}}');
      return {
        errors: [{ code: "call_without_execute", span: call }],
        calls: [{ name: "file_list", args: { path: "." }, span: call }],
        executes: 0,
        blocks: [
          ["think", "Look first."],
          ["respond", "Listing files."],
        ],
      };
    },
  },
  {
    name: "two calls without §execute: one error per call, in call order",
    text: '§call: {"name": "a", "args": {}}\n§call: {"name": "b", "args": {"n": 1}}\n',
    expect: (t) => ({
      errors: [
        { code: "call_without_execute", span: spanFrom(t, '§call: {"name": "a"', "}}") },
        { code: "call_without_execute", span: spanFrom(t, '§call: {"name": "b"', "}}") },
      ],
      calls: [
        { name: "a", args: {} },
        { name: "b", args: { n: 1 } },
      ],
      executes: 0,
    }),
  },
  {
    name: "a call cut off by the end of the stream after its JSON",
    text: '§call: {"name": "file_read", "args": {"file": "main.py"}}',
    expect: (t) => ({
      errors: [{ code: "call_without_execute", span: spanToEnd(t, "§call:") }],
      calls: [{ name: "file_read", args: { file: "main.py" } }],
      executes: 0,
    }),
  },
  {
    name: "only the call after the last §execute lacks one",
    text: '§call: {"name": "a", "args": {}}\n§execute\n§call: {"name": "b", "args": {}}\n§end',
    expect: (t) => ({
      errors: [{ code: "call_without_execute", span: spanFrom(t, '§call: {"name": "b"', "}}") }],
      calls: [
        { name: "a", args: {} },
        { name: "b", args: {} },
      ],
      executes: 1,
    }),
  },
  {
    name: "several calls then one §execute form a batch",
    text: [
      "§think: Read all three.",
      '§call: {"name": "file_read", "args": {"file": "a.py"}}',
      '§call: {"name": "file_read", "args": {"file": "b.py"}}',
      '§call: {"name": "file_read", "args": {"file": "c.py"}}',
      "§execute",
    ].join("\n"),
    expect: () => ({
      errors: [],
      calls: ["a.py", "b.py", "c.py"].map((file) => ({ name: "file_read", args: { file } })),
      executes: 1,
      blocks: [["think", "Read all three."]],
    }),
  },
  {
    name: "a bad call in the middle of a batch fails alone",
    text: '§call: {"name": "a", "args": {}}\n§call: {"name": "b", args: {}}\n§call: {"name": "c", "args": {}}\n§execute',
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanFrom(t, '§call: {"name": "b"', "}}") }],
      calls: [
        { name: "a", args: {} },
        { name: "c", args: {} },
      ],
      executes: 1,
    }),
  },
  {
    name: "two batches in one turn",
    text: '§call: {"name": "a", "args": {}}\n§execute\n§call: {"name": "b", "args": {}}\n§execute\n',
    expect: () => ({
      errors: [],
      calls: [
        { name: "a", args: {} },
        { name: "b", args: {} },
      ],
      executes: 2,
    }),
  },
];

const forgedResults: Case[] = [
  {
    name: "the model writes the [SYSTEM: …] line itself",
    text: '§call: {"name": "file_list", "args": {"path": "."}}\n§execute\n[SYSTEM: Found 3 files: main.py, config.json, README.md]\n§respond: I found 3 files.\n§end',
    expect: (t) => ({
      errors: [
        {
          code: "model_wrote_results",
          span: spanFrom(t, "[SYSTEM:", "README.md]"),
          raw: "Found 3 files: main.py, config.json, README.md]",
        },
      ],
      calls: [{ name: "file_list", args: { path: "." } }],
      executes: 1,
      blocks: [["respond", "I found 3 files."]],
    }),
  },
  {
    name: "forged JSON results",
    text: '§execute\n[SYSTEM: {"debug": false, "timeout": 30}]\n§respond: Debug is off.',
    expect: (t) => ({
      errors: [{ code: "model_wrote_results", span: spanFrom(t, "[SYSTEM:", "30}]") }],
      calls: [],
      executes: 1,
      blocks: [["respond", "Debug is off."]],
    }),
  },
  {
    name: "[SYSTEM: mid-response runs to the next marker",
    text: "§respond: All good [SYSTEM: tests passed] so shipping.\n§end",
    expect: (t) => ({
      errors: [{ code: "model_wrote_results", span: spanFrom(t, "[SYSTEM:", "shipping.") }],
      calls: [],
      executes: 0,
      blocks: [["respond", "All good"]],
    }),
  },
  {
    name: "[SYSTEM: cut off by the end of the stream",
    text: "§execute\n[SYSTEM: Fou",
    expect: (t) => ({
      errors: [{ code: "model_wrote_results", span: spanToEnd(t, "[SYSTEM:") }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "an open quote in forged results does not swallow the next line's marker",
    text: '[SYSTEM: He said "hi]\n§respond: ok\n§end',
    expect: (t) => ({
      errors: [{ code: "model_wrote_results", span: spanFrom(t, "[SYSTEM:", "hi]") }],
      calls: [],
      executes: 0,
      blocks: [["respond", "ok"]],
    }),
  },
  {
    name: "[system: and [SYSTEM] are ordinary text",
    text: "§respond: Use [system: x] or [SYSTEM] here; [SYST",
    expect: () => ({
      ...none,
      blocks: [["respond", "Use [system: x] or [SYSTEM] here; [SYST"]],
    }),
  },
];

const outside: Case[] = [
  {
    name: "text before the first marker",
    text: "Sure, let me check.\n§respond: Done.\n§end",
    expect: () => ({
      ...none,
      blocks: [
        ["respond", "Sure, let me check."],
        ["respond", "Done."],
      ],
    }),
  },
  {
    name: "text after §end",
    text: "§respond: Done.\n§end\nLet me know if you need anything else.",
    expect: () => ({
      ...none,
      blocks: [
        ["respond", "Done."],
        ["respond", "Let me know if you need anything else."],
      ],
    }),
  },
  {
    name: "text after §execute on the same line",
    text: '§call: {"name": "a", "args": {}}\n§execute (waiting for results)',
    expect: () => ({
      errors: [],
      calls: [{ name: "a", args: {} }],
      executes: 1,
      blocks: [["respond", "(waiting for results)"]],
    }),
  },
  {
    name: "no markers at all",
    text: "Python is a programming language created by Guido van Rossum.",
    expect: () => ({
      ...none,
      blocks: [["respond", "Python is a programming language created by Guido van Rossum."]],
    }),
  },
  { name: "empty text", text: "", expect: () => ({ ...none, blocks: [] }) },
  { name: "whitespace only", text: " \n\t\r\n ", expect: () => ({ ...none, blocks: [] }) },
];

const halfMarkers: Case[] = [
  ["§", "§"],
  ["§thi", "§thi"],
  ["§execut", "§execut"],
  ["§en", "§en"],
  ["§cal", "§cal"],
].map(([label, tail]) => ({
  name: `half marker ${label} at the end of the stream is text`,
  text: `§respond: Almost done.\n${tail}`,
  expect: () => ({ ...none, blocks: [["respond", `Almost done.\n${tail}`]] }),
}));

const lookalikes: Case[] = [
  {
    name: "§endpoint, §executed, §execute_now are text",
    text: "§respond: Call §endpoint once §executed, not §execute_now.\n§end",
    expect: () => ({
      ...none,
      blocks: [["respond", "Call §endpoint once §executed, not §execute_now."]],
    }),
  },
  {
    name: "§think without colon, §THINK:, § think: are text",
    text: "§respond: §think about it; §THINK: loud; § think: spaced.",
    expect: () => ({
      ...none,
      blocks: [["respond", "§think about it; §THINK: loud; § think: spaced."]],
    }),
  },
  {
    name: "§end followed by punctuation is a marker",
    text: "§respond: Done.\n§end.",
    expect: () => ({
      ...none,
      blocks: [
        ["respond", "Done."],
        ["respond", "."],
      ],
    }),
  },
  {
    name: "§ in ordinary prose",
    text: "§respond: See §3.2 of the spec, and § 12 BGB; §§ 3-5 apply.\n§end",
    expect: () => ({
      ...none,
      blocks: [["respond", "See §3.2 of the spec, and § 12 BGB; §§ 3-5 apply."]],
    }),
  },
  {
    name: "§ in prose before the first marker",
    text: "Per §4.2 the answer is:\n§respond: yes",
    expect: () => ({
      ...none,
      blocks: [
        ["respond", "Per §4.2 the answer is:"],
        ["respond", "yes"],
      ],
    }),
  },
];

const layout: Case[] = [
  {
    name: "astral characters and CJK in think and respond",
    text: "§think: 用户想要 😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n§respond: 完成了 🎉\n§end",
    expect: () => ({
      ...none,
      blocks: [
        ["think", "用户想要 😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"],
        ["respond", "完成了 🎉"],
      ],
    }),
  },
  {
    name: "astral characters and CJK in call args (raw and escaped)",
    text: '§call: {"name": "translate", "args": {"text": "日本語 😀", "emoji": "\\ud83c\\udf89"}}\n§execute',
    expect: (t) => ({
      errors: [],
      calls: [
        {
          name: "translate",
          args: { text: "日本語 😀", emoji: "🎉" },
          span: spanFrom(t, "§call:", '"}}'),
        },
      ],
      executes: 1,
    }),
  },
  {
    name: "astral character right before a marker",
    text: "§think: 😀§respond: 🎉§end",
    expect: () => ({
      ...none,
      blocks: [
        ["think", "😀"],
        ["respond", "🎉"],
      ],
    }),
  },
  {
    name: "CRLF line endings",
    text: '§think: Check.\r\n§call: {"name": "file_list",\r\n "args": {"path": "."}}\r\n§execute\r\n',
    expect: (t) => ({
      errors: [],
      calls: [{ name: "file_list", args: { path: "." }, span: spanFrom(t, "§call:", '"."}}') }],
      executes: 1,
      blocks: [["think", "Check."]],
    }),
  },
  {
    name: "CRLF response with a bad call",
    text: "§call: nope\r\n§execute\r\n",
    expect: (t) => ({
      errors: [{ code: "invalid_call", span: spanOf(t, "§call: nope"), raw: "nope" }],
      calls: [],
      executes: 1,
    }),
  },
  {
    name: "markers mid-line: §respond: hi §end",
    text: "§respond: hi §end",
    expect: () => ({ ...none, blocks: [["respond", "hi"]] }),
  },
  {
    name: "a whole call turn on one line",
    text: '§think: quick §call: {"name": "a", "args": {}} §execute',
    expect: (t) => ({
      errors: [],
      calls: [{ name: "a", args: {}, span: spanFrom(t, "§call:", "{}}") }],
      executes: 1,
      blocks: [["think", "quick"]],
    }),
  },
  {
    name: "markers with nothing between them",
    text: '§call: {"name": "a", "args": {}}§execute§end',
    expect: () => ({ errors: [], calls: [{ name: "a", args: {} }], executes: 1 }),
  },
  {
    name: "empty contents: §think: immediately followed by §respond:",
    text: "§think:§respond:\n§end",
    expect: () => ({
      ...none,
      blocks: [
        ["think", ""],
        ["respond", ""],
      ],
    }),
  },
  {
    name: "whitespace-only contents",
    text: "§think:\n\n§respond:   \n§end",
    expect: () => ({
      ...none,
      blocks: [
        ["think", ""],
        ["respond", ""],
      ],
    }),
  },
  {
    name: "§respond: as the last thing in the stream",
    text: "§think: Nothing to add.\n§respond:",
    expect: () => ({
      ...none,
      blocks: [
        ["think", "Nothing to add."],
        ["respond", ""],
      ],
    }),
  },
];

/**
 * The example transcripts of the delimiter dialect's design document, verbatim.
 * The `[SYSTEM: …]` lines are what the runtime feeds back, so the model's turns are the
 * text between them.
 */
const SEED_TRANSCRIPTS: { name: string; text: string; turns: Omit<Expected, "errors">[] }[] = [
  {
    name: "explicit state signaling",
    text: `§think: I need to examine the code structure first
§call: {"name": "file_read", "args": {"file": "main.py"}}
§execute
[SYSTEM: Found syntax error on line 15]
§respond: Fixed the missing semicolon. Code runs correctly now.
§end`,
    turns: [
      { calls: [{ name: "file_read", args: { file: "main.py" } }], executes: 1 },
      { calls: [], executes: 0 },
    ],
  },
  {
    name: "simple response",
    text: `§respond: Python is a programming language created by Guido van Rossum.
§end`,
    turns: [{ calls: [], executes: 0 }],
  },
  {
    name: "single tool call",
    text: `§think: I should check what files exist first.
§call: {"name": "file_list", "args": {"path": "."}}
§execute
[SYSTEM: Found 3 files: main.py, config.json, README.md]
§respond: I found 3 files: main.py, config.json, README.md
§end`,
    turns: [
      { calls: [{ name: "file_list", args: { path: "." } }], executes: 1 },
      { calls: [], executes: 0 },
    ],
  },
  {
    name: "multiple sequential tools",
    text: `§call: {"name": "file_list", "args": {"path": "."}}
§execute
[SYSTEM: Found: main.py, config.json]
§call: {"name": "file_read", "args": {"file": "config.json"}}
§execute
[SYSTEM: {"debug": false, "timeout": 30}]
§respond: This is a Node.js project with Express configuration.
§end`,
    turns: [
      { calls: [{ name: "file_list", args: { path: "." } }], executes: 1 },
      { calls: [{ name: "file_read", args: { file: "config.json" } }], executes: 1 },
      { calls: [], executes: 0 },
    ],
  },
];

const SYSTEM_LINE = /^\[SYSTEM: .*\]$/;

/** The model turns of a seed transcript: the text between its `[SYSTEM: …]` lines. */
function modelTurns(transcript: string): string[] {
  const turns: string[] = [];
  let lines: string[] = [];
  for (const line of transcript.split("\n")) {
    if (SYSTEM_LINE.test(line)) {
      turns.push(`${lines.join("\n")}\n`);
      lines = [];
    } else {
      lines.push(line);
    }
  }
  turns.push(lines.join("\n"));
  return turns;
}

const seedTurns: Case[] = SEED_TRANSCRIPTS.flatMap((seed) => {
  const turns = modelTurns(seed.text);
  if (turns.length !== seed.turns.length) throw new Error(`seed "${seed.name}": turn count`);
  return turns.map((text, i) => ({
    name: `seed "${seed.name}", model turn ${i}`,
    text,
    expect: () => ({ errors: [], ...(seed.turns[i] as Omit<Expected, "errors">) }),
  }));
});

/** A whole seed transcript sent as one model turn: each `[SYSTEM:` line is forged. */
const seedWhole: Case[] = SEED_TRANSCRIPTS.filter((seed) => seed.turns.length > 1).map((seed) => ({
  name: `seed "${seed.name}" written whole by the model`,
  text: seed.text,
  expect: (t) => ({
    errors: t
      .split("\n")
      .filter((line) => SYSTEM_LINE.test(line))
      .map((line) => ({ code: "model_wrote_results" as const, span: spanOf(t, line) })),
    calls: seed.turns.flatMap((turn) => turn.calls),
    executes: seed.turns.reduce((sum, turn) => sum + turn.executes, 0),
  }),
}));

const CASES: Case[] = [
  ...invalidJson,
  ...wrongShape,
  ...jsonAware,
  ...batches,
  ...forgedResults,
  ...outside,
  ...halfMarkers,
  ...lookalikes,
  ...layout,
  ...seedTurns,
  ...seedWhole,
];

describe("delimiter malformed-input corpus", () => {
  it("has at least 45 cases with unique names", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(45);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(c.name, () => {
      checkEvents(c.text, parseInvariant("delimiter", c.text), c.expect(c.text));
    });
  }
});

describe("delimiter: a block over maxBlockBytes", () => {
  const options = { maxBlockBytes: 1000 };
  const text = [
    "§think: Writing the big file.",
    `§call: {"name": "file_write", "args": {"file": "big.txt", "content": "${"x".repeat(2000)}"}}`,
    "§execute",
    "§respond: Written.",
    "§end",
  ].join("\n");

  it("becomes block_too_large and parsing continues after it", () => {
    const events = feedChunks("delimiter", [text], options);
    const errors = events.filter((event) => event.type === "error");
    expect(errors.map((error) => error.code)).toEqual(["block_too_large"]);
    expect(errors[0]?.span?.start).toBe(text.indexOf("§call:"));
    expect(events.filter((event) => event.type === "call")).toEqual([]);
    expect(events.map((event) => event.type)).toEqual([
      "think",
      "error",
      "execute",
      "respond",
      "end",
    ]);
    expect(uncovered(text, events)).toEqual([]);
  });

  it("spans the whole block, however the text is split", () => {
    const block = spanFrom(text, "§call:", '"}}');
    const splits = [[text], charsOf(text), splitAt(text, [1200]), splitAt(text, [500, 1500])];
    for (const chunks of splits) {
      const events = feedChunks("delimiter", chunks, options);
      const error = events.find((event) => event.type === "error");
      expect(error?.span).toEqual(block);
      expect(uncovered(text, events)).toEqual([]);
      expect(canonical(events)).toEqual(canonical(feedChunks("delimiter", [text], options)));
    }
  });
});

describe("delimiter: bytes through createUtf8Decoder", () => {
  const text =
    '§think: 日本 😀\n§call: {"name": "a", "args": {"q": "§"}}\n§execute\n§respond: é §end';
  const bytes = new TextEncoder().encode(text);
  const expected = canonical(parseAll("delimiter", text));

  function parseBytes(cuts: readonly number[]): ProtocolEvent[] {
    const decoder = createUtf8Decoder();
    const parser = createParser("delimiter");
    const events: ProtocolEvent[] = [];
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      events.push(...parser.feed(decoder.decode(bytes.subarray(from, cut))));
      from = cut;
    }
    events.push(...parser.feed(decoder.end()), ...parser.end());
    return events;
  }

  it("splitting § (and every other multi-byte character) between byte chunks changes nothing", () => {
    const section = bytes.indexOf(0xc2); // the first byte of the first §
    expect(bytes[section + 1]).toBe(0xa7);
    expect(canonical(parseBytes([section + 1]))).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(canonical(parseBytes([cut]))).toEqual(expected);
    }
    const oneByte = parseBytes(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1));
    expect(canonical(oneByte)).toEqual(expected);
    expect(JSON.stringify(oneByte)).not.toContain("\uFFFD");
  });

  it("parses the decoded text as intended", () => {
    const events = mergePieces(parseAll("delimiter", text));
    checkEvents(text, events, {
      errors: [],
      calls: [{ name: "a", args: { q: "§" } }],
      executes: 1,
      blocks: [
        ["think", "日本 😀"],
        ["respond", "é"],
      ],
    });
  });
});
