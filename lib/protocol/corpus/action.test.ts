/**
 * Malformed-input corpus for the `action` dialect (docs/dialects/action.md). Every case is a
 * real-looking model turn, parsed with `parseInvariant` (so it is also checked for chunk
 * invariance), and asserts the exact error codes and spans, the calls with their action
 * spec, and that no non-whitespace character is left outside every event's span.
 * Spans are computed from the text (`at.of`, `at.block`, `at.toEnd`), never hard-coded.
 */
import { describe, expect, it } from "vitest";
import type {
  ActionSpec,
  CallEvent,
  EventType,
  ParserErrorCode,
  ProtocolEvent,
  Span,
} from "../events";
import { mergePieces } from "../merge";
import { canonical, charsOf, feedChunks, parseInvariant, uncovered } from "../testing";

/** Spans located in a case's text, so that expectations read like the text itself. */
interface Locate {
  /** The span of the `nth` (from 0) occurrence of `needle`. */
  of(needle: string, nth?: number): Span;
  /** From the `nth` occurrence of `open` to the end of the first `close` after it. */
  block(open: string, close: string, nth?: number): Span;
  /** From the `nth` occurrence of `open` to the end of the text. */
  toEnd(open: string, nth?: number): Span;
}

function locate(text: string): Locate {
  const find = (needle: string, nth: number, from = 0): number => {
    let at = text.indexOf(needle, from);
    for (let i = 0; i < nth && at >= 0; i++) at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`Case text has no occurrence ${nth} of ${JSON.stringify(needle)}`);
    return at;
  };
  return {
    of: (needle, nth = 0) => {
      const start = find(needle, nth);
      return { start, end: start + needle.length };
    },
    block: (open, close, nth = 0) => {
      const start = find(open, nth);
      return { start, end: find(close, 0, start + open.length) + close.length };
    },
    toEnd: (open, nth = 0) => ({ start: find(open, nth), end: text.length }),
  };
}

interface ExpectedCall {
  /** The action's `id` attribute, or `null` when the parser must generate one. */
  id: string | null;
  name: string;
  args: Record<string, unknown>;
  action: ActionSpec;
}

interface Expected {
  /** Merged event types in order, space-separated. */
  types: string;
  errors?: [ParserErrorCode, Span][];
  calls?: ExpectedCall[];
  think?: string[];
  respond?: string[];
}

interface Case {
  name: string;
  text: string;
  expect: (at: Locate) => Expected;
}

const TOOL_SYNC: ActionSpec = { type: "tool", mode: "sync" };
const ok = (name: string, args: Record<string, unknown> = {}) =>
  JSON.stringify({ name, parameters: args });
const KV = ok("kv_get", { key: "user:42" });
const KV_CALL = { name: "kv_get", args: { key: "user:42" } };

function checkCase(text: string, events: readonly ProtocolEvent[], expected: Expected): void {
  expect(events.map((event) => event.type).join(" ")).toBe(expected.types);

  const errors = events.filter((event) => event.type === "error");
  expect(errors.map((error) => [error.code, error.span])).toEqual(expected.errors ?? []);
  for (const error of errors) {
    expect(error.message.length).toBeGreaterThan(0);
    // Stray text is carried verbatim so the UI can show it.
    if (error.code === "stray_text" && error.span !== undefined) {
      expect(error.raw).toBe(text.slice(error.span.start, error.span.end));
    }
  }

  const calls = events.filter((event): event is CallEvent => event.type === "call");
  const wanted = expected.calls ?? [];
  expect(calls).toHaveLength(wanted.length);
  calls.forEach((call, i) => {
    const want = wanted[i] as ExpectedCall;
    if (want.id === null) {
      expect(call.call.id).toMatch(/\S/);
    } else {
      expect(call.call.id).toBe(want.id);
    }
    expect(call.call.name).toBe(want.name);
    expect(call.call.args).toStrictEqual(want.args);
    expect(call.action).toStrictEqual(want.action);
    // A call spans its whole block, markers included.
    const spanned = text.slice(call.span.start, call.span.end);
    expect(spanned.startsWith("<action")).toBe(true);
    expect(spanned.endsWith("</action>")).toBe(true);
  });
  // Ids are what `depends_on` and results refer to: never two calls with one id in a turn.
  expect(new Set(calls.map((call) => call.call.id)).size).toBe(calls.length);

  const contents = (type: EventType) =>
    events.flatMap((event) =>
      event.type === type && (type === "think" || type === "respond") && "content" in event
        ? [event.content]
        : [],
    );
  if (expected.think !== undefined) expect(contents("think")).toEqual(expected.think);
  if (expected.respond !== undefined) expect(contents("respond")).toEqual(expected.respond);

  expect(uncovered(text, events)).toEqual([]);
}

const attributes: Case[] = [
  {
    name: "attributes in any order",
    text: `<action id="store" mode="async" type="relic">\n${ok("kv_set", { key: "a", value: 1 })}\n</action>`,
    expect: () => ({
      types: "call",
      calls: [
        {
          id: "store",
          name: "kv_set",
          args: { key: "a", value: 1 },
          action: { type: "relic", mode: "async" },
        },
      ],
    }),
  },
  {
    name: "single quotes, mixed quotes and spaces around =",
    text: `<action type='workflow' mode = "fire_and_forget"   id= 'pipe' >\n${ok("data_pipeline", { steps: ["validate", "load"] })}\n</action>`,
    expect: () => ({
      types: "call",
      calls: [
        {
          id: "pipe",
          name: "data_pipeline",
          args: { steps: ["validate", "load"] },
          action: { type: "workflow", mode: "fire_and_forget" },
        },
      ],
    }),
  },
  {
    name: "missing attributes default to tool/sync with a generated id",
    text: `<action>\n${KV}\n</action>\n<action mode="async">\n${ok("clock")}\n</action>\n<action type="llm">\n${ok("summarize", { text: "x" })}\n</action>`,
    expect: () => ({
      types: "call call call",
      calls: [
        { id: null, ...KV_CALL, action: TOOL_SYNC },
        { id: null, name: "clock", args: {}, action: { type: "tool", mode: "async" } },
        { id: null, name: "summarize", args: { text: "x" }, action: { type: "llm", mode: "sync" } },
      ],
    }),
  },
  {
    name: "attributes spread over lines and tabs",
    text: `<action\n\ttype="agent"\n\tmode="sync"\n\tid="analyze"\n>\n${ok("data_analyzer", { data: "$raw" })}\n</action>`,
    expect: () => ({
      types: "call",
      calls: [
        {
          id: "analyze",
          name: "data_analyzer",
          args: { data: "$raw" },
          action: { type: "agent", mode: "sync" },
        },
      ],
    }),
  },
  {
    name: "a > inside a quoted attribute does not end the tag",
    text: `<action id="a>b" mode="async">${KV}</action>`,
    expect: () => ({
      types: "call",
      calls: [{ id: "a>b", ...KV_CALL, action: { type: "tool", mode: "async" } }],
    }),
  },
  {
    name: "unknown type",
    text: `<thought>Call the function.</thought>\n<action type="function" id="f">\n${KV}\n</action>\n<response>Tried.</response>`,
    expect: (at) => ({
      types: "think error respond",
      errors: [["invalid_action", at.block("<action", "</action>")]],
      think: ["Call the function."],
      respond: ["Tried."],
    }),
  },
  {
    name: "type is case-sensitive",
    text: `<action type="Tool" id="t">${KV}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "unknown mode",
    text: `<action type="tool" mode="parallel" id="p">\n${KV}\n</action>\n<action type="tool" mode="async" id="q">\n${KV}\n</action>`,
    expect: (at) => ({
      types: "error call",
      errors: [["invalid_action", at.block("<action", "</action>")]],
      calls: [{ id: "q", ...KV_CALL, action: { type: "tool", mode: "async" } }],
    }),
  },
  {
    name: "unquoted attribute value",
    text: `<action type=tool mode=async id=fetch>\n${KV}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "bare attribute without a value",
    text: `<action async id="x">${KV}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "duplicate attribute",
    text: `<action type="tool" mode="async" type="agent" id="d">\n${KV}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "the design's best-practice shorthand with ... and an unquoted array attribute",
    text: `<action ... id="analyze" depends_on=["fetch_data"]>\n${ok("data_analyzer")}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "duplicate action id in one turn",
    text: `<action type="tool" mode="async" id="fetch">\n${ok("web_scraper", { url: "a" })}\n</action>\n<action type="tool" mode="async" id="fetch">\n${ok("web_scraper", { url: "b" })}\n</action>\n<action type="tool" mode="async" id="fetch2">\n${ok("web_scraper", { url: "b" })}\n</action>`,
    expect: (at) => ({
      types: "call error call",
      errors: [["invalid_action", at.block("<action", "</action>", 1)]],
      calls: [
        {
          id: "fetch",
          name: "web_scraper",
          args: { url: "a" },
          action: { type: "tool", mode: "async" },
        },
        {
          id: "fetch2",
          name: "web_scraper",
          args: { url: "b" },
          action: { type: "tool", mode: "async" },
        },
      ],
    }),
  },
  {
    name: "an id whose first action was rejected can be used again",
    text: `<action id="a">{"name": "kv_get", "parameters": {"key": "user:42",}}</action>\n<action id="a">${KV}</action>`,
    expect: (at) => ({
      types: "error call",
      errors: [["invalid_json", at.block("<action", "</action>")]],
      calls: [{ id: "a", ...KV_CALL, action: TOOL_SYNC }],
    }),
  },
];

const brokenTags: Case[] = [
  {
    name: "tag missing its > followed by {",
    text: `<action type="tool" mode="async" id="a" {"name": "kv_get", "parameters": {"key": "user:42"}}</action>\n<response>ok</response>`,
    expect: (at) => ({
      types: "error respond",
      errors: [["invalid_action", at.block("<action", "</action>")]],
      respond: ["ok"],
    }),
  },
  {
    name: "tag missing its > followed by a newline and the body",
    text: `<action type="tool" mode="async" id="a"\n${KV}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_action", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "tag missing its > followed by <",
    text: `<action type="tool" id="a"\n<thought>Oops, forgot the body.</thought>`,
    expect: (at) => ({
      types: "error think",
      errors: [["invalid_action", { start: 0, end: at.of("<thought>").start }]],
      think: ["Oops, forgot the body."],
    }),
  },
  {
    name: "<actions> wrapper is a lookalike, the real actions inside still run",
    text: `<actions>\n<action id="a">${KV}</action>\n</actions>`,
    expect: (at) => ({
      types: "error call error",
      errors: [
        ["stray_text", at.of("<actions>")],
        ["stray_text", at.of("</actions>")],
      ],
      calls: [{ id: "a", ...KV_CALL, action: TOOL_SYNC }],
    }),
  },
  {
    name: "<ACTION> in capitals is text",
    text: `<ACTION type="tool" id="a">\n${KV}\n</ACTION>`,
    expect: (at) => ({ types: "error", errors: [["stray_text", at.toEnd("<ACTION")]] }),
  },
  {
    name: "<action-item> and <action_1> are text",
    text: `<action-item id="a">${KV}</action-item>\n<action_1>${KV}</action_1>`,
    expect: (at) => ({ types: "error", errors: [["stray_text", at.toEnd("<action-item")]] }),
  },
  {
    name: "a stray </action> outside any block is text",
    text: `<thought>Done.</thought>\n</action>\n<response>All set.</response>`,
    expect: (at) => ({
      types: "think error respond",
      errors: [["stray_text", at.of("</action>")]],
      think: ["Done."],
      respond: ["All set."],
    }),
  },
];

const bodies: Case[] = [
  {
    name: "invalid JSON: trailing comma",
    text: `<action id="r">\n{"name": "file_read", "parameters": {"path": "a.py",},}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_json", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "invalid JSON: a Python dict",
    text: `<action id="r">{'name': 'file_read', 'parameters': {'path': 'a.py'}}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_json", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "invalid JSON: the design's // comment in the body",
    text: `<action id="s">\n{\n  "name": "web_scraper",\n  "parameters": {"url": "https://example.com"},\n  "on_error": "skip"  // or "fail", "retry"\n}\n</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_json", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "invalid JSON: the design's ... placeholders",
    text: `<action type="tool" mode="async" id="fetch1">...</action>\n<action type="tool" mode="async" id="fetch2">...</action>`,
    expect: (at) => ({
      types: "error error",
      errors: [
        ["invalid_json", at.block("<action", "</action>")],
        ["invalid_json", at.block("<action", "</action>", 1)],
      ],
    }),
  },
  {
    name: "invalid JSON: empty body",
    text: `<action type="tool" id="e"></action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_json", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "invalid JSON: text after the object",
    text: `<action id="a">${KV} and then I will summarise</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_json", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "body is an array (xml-dialect habit)",
    text: `<action id="a">[${KV}]</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_call", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "body missing name",
    text: `<action id="a">{"tool": "kv_get", "parameters": {"key": "k"}}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_call", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "body with an empty name",
    text: `<action id="a">{"name": "  ", "parameters": {}}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_call", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "parameters missing, an array, or a string",
    text: `<action id="a">{"name": "kv_get"}</action>\n<action id="b">{"name": "kv_get", "parameters": ["k"]}</action>\n<action id="c">{"name": "kv_get", "args": {"key": "k"}, "parameters": "key=k"}</action>`,
    expect: (at) => ({
      types: "error error error",
      errors: [
        ["invalid_call", at.block("<action", "</action>")],
        ["invalid_call", at.block("<action", "</action>", 1)],
        ["invalid_call", at.block("<action", "</action>", 2)],
      ],
    }),
  },
  {
    name: "bad output_key: dashes, a $ prefix, a number",
    text: `<action id="a">{"name": "web_scraper", "parameters": {}, "output_key": "web-data"}</action>\n<action id="b">{"name": "web_scraper", "parameters": {}, "output_key": "$web"}</action>\n<action id="c">{"name": "web_scraper", "parameters": {}, "output_key": 7}</action>`,
    expect: (at) => ({
      types: "error error error",
      errors: [
        ["invalid_call", at.block("<action", "</action>")],
        ["invalid_call", at.block("<action", "</action>", 1)],
        ["invalid_call", at.block("<action", "</action>", 2)],
      ],
    }),
  },
  {
    name: "depends_on not an array, or not of strings",
    text: `<action id="a">{"name": "analyzer", "parameters": {}, "depends_on": "fetch1"}</action>\n<action id="b">{"name": "analyzer", "parameters": {}, "depends_on": [1, 2]}</action>`,
    expect: (at) => ({
      types: "error error",
      errors: [
        ["invalid_call", at.block("<action", "</action>")],
        ["invalid_call", at.block("<action", "</action>", 1)],
      ],
    }),
  },
  {
    name: "negative, zero and string timeouts",
    text: `<action id="a">{"name": "kv_get", "parameters": {}, "timeout": -5}</action>\n<action id="b">{"name": "kv_get", "parameters": {}, "timeout": 0}</action>\n<action id="c">{"name": "kv_get", "parameters": {}, "timeout": "30s"}</action>`,
    expect: (at) => ({
      types: "error error error",
      errors: [
        ["invalid_call", at.block("<action", "</action>")],
        ["invalid_call", at.block("<action", "</action>", 1)],
        ["invalid_call", at.block("<action", "</action>", 2)],
      ],
    }),
  },
  {
    name: "retry not a whole number ≥ 0",
    text: `<action id="a">{"name": "kv_get", "parameters": {}, "retry": 1.5}</action>\n<action id="b">{"name": "kv_get", "parameters": {}, "retry": -1}</action>\n<action id="c">{"name": "kv_get", "parameters": {}, "retry": "3"}</action>`,
    expect: (at) => ({
      types: "error error error",
      errors: [
        ["invalid_call", at.block("<action", "</action>")],
        ["invalid_call", at.block("<action", "</action>", 1)],
        ["invalid_call", at.block("<action", "</action>", 2)],
      ],
    }),
  },
  {
    name: "on_error unknown",
    text: `<action id="a">{"name": "web_scraper", "parameters": {"url": "x"}, "on_error": "ignore"}</action>`,
    expect: (at) => ({
      types: "error",
      errors: [["invalid_call", at.block("<action", "</action>")]],
    }),
  },
  {
    name: "every option valid maps to the action spec",
    text: `<action type="tool" mode="async" id="scrape">\n{\n  "name": "web_scraper",\n  "parameters": {"url": "https://example.com"},\n  "output_key": "page_1",\n  "depends_on": [],\n  "timeout": 2.5,\n  "retry": 0,\n  "on_error": "retry"\n}\n</action>`,
    expect: () => ({
      types: "call",
      calls: [
        {
          id: "scrape",
          name: "web_scraper",
          args: { url: "https://example.com" },
          action: {
            type: "tool",
            mode: "async",
            outputKey: "page_1",
            dependsOn: [],
            timeout: 2.5,
            retry: 0,
            onError: "retry",
          },
        },
      ],
    }),
  },
];

const strings: Case[] = [
  {
    name: "</action> inside a JSON string does not close the block",
    text: `<action id="doc">{"name": "file_write", "parameters": {"path": "README.md", "text": "Close with </action> and <response>."}}</action>`,
    expect: () => ({
      types: "call",
      calls: [
        {
          id: "doc",
          name: "file_write",
          args: { path: "README.md", text: "Close with </action> and <response>." },
          action: TOOL_SYNC,
        },
      ],
    }),
  },
  {
    name: "escaped quotes around </action> and a trailing backslash",
    text: '<action id="e">{"name": "echo", "parameters": {"t": "a \\"</action>\\" b\\\\"}}</action>',
    expect: () => ({
      types: "call",
      calls: [{ id: "e", name: "echo", args: { t: 'a "</action>" b\\' }, action: TOOL_SYNC }],
    }),
  },
  {
    name: "unterminated string swallows </action>, then a newline: recovery",
    text: `<action id="q">\n{"name": "search", "parameters": {"q": "weather in Paris</action>\n<action id="r">\n${KV}\n</action>\n<response>Searching.</response>`,
    expect: (at) => ({
      types: "error call respond",
      errors: [["invalid_json", at.block("<action", "</action>")]],
      calls: [{ id: "r", ...KV_CALL, action: TOOL_SYNC }],
      respond: ["Searching."],
    }),
  },
  {
    name: "unterminated string recovery with CRLF",
    text: `<action id="q">{"name": "search", "parameters": {"q": "oops</action>\r\n<response>ok</response>\r\n`,
    expect: (at) => ({
      types: "error respond",
      errors: [["invalid_json", at.block("<action", "</action>")]],
      respond: ["ok"],
    }),
  },
];

const outside: Case[] = [
  {
    name: "the design's stray THOUGHT{ - content: } between actions",
    text: `<action type="tool" mode="async" id="fetch2">\n${KV}\n</action>\n\nTHOUGHT{\n    - content: \n}\n\n<action type="agent" mode="sync" id="analyze">\n${ok("data_analyzer")}\n</action>`,
    expect: (at) => ({
      types: "call error call",
      errors: [["stray_text", at.block("THOUGHT{", "}")]],
      calls: [
        { id: "fetch2", ...KV_CALL, action: { type: "tool", mode: "async" } },
        { id: "analyze", name: "data_analyzer", args: {}, action: { type: "agent", mode: "sync" } },
      ],
    }),
  },
  {
    name: "chatty prose before, between and after blocks",
    text: `Sure! Let me look that up.\n<thought>Need the user record.</thought>\nOne moment...\n<action id="u">${KV}</action>\nHope this helps!`,
    expect: (at) => ({
      types: "error think error call error",
      errors: [
        ["stray_text", at.of("Sure! Let me look that up.")],
        ["stray_text", at.of("One moment...")],
        ["stray_text", at.of("Hope this helps!")],
      ],
      think: ["Need the user record."],
      calls: [{ id: "u", ...KV_CALL, action: TOOL_SYNC }],
    }),
  },
  {
    name: "the design's HTML comments between actions",
    text: `<!-- SYNC: Must wait for authentication -->\n<action type="tool" mode="sync" id="auth">\n{"name": "authenticate", "parameters": {"token": "$user_token"}}\n</action>\n\n<!-- FIRE_AND_FORGET: Log but don't wait -->\n<action type="relic" mode="fire_and_forget" id="log">\n{"name": "logger", "parameters": {"event": "data_processed"}}\n</action>`,
    expect: (at) => ({
      types: "error call error call",
      errors: [
        ["stray_text", at.block("<!-- SYNC", "-->")],
        ["stray_text", at.block("<!-- FIRE", "-->")],
      ],
      calls: [
        { id: "auth", name: "authenticate", args: { token: "$user_token" }, action: TOOL_SYNC },
        {
          id: "log",
          name: "logger",
          args: { event: "data_processed" },
          action: { type: "relic", mode: "fire_and_forget" },
        },
      ],
    }),
  },
  {
    name: "the whole turn wrapped in a Markdown fence",
    text: "```xml\n<thought>Plan.</thought>\n<response>Done.</response>\n```",
    expect: (at) => ({
      types: "error think respond error",
      errors: [
        ["stray_text", at.of("```xml")],
        ["stray_text", at.of("```", 1)],
      ],
      think: ["Plan."],
      respond: ["Done."],
    }),
  },
  {
    name: "a second <response> is duplicate_response, its content still shown",
    text: `<response>The answer is 42.</response>\n<response>Actually, 43.</response>`,
    expect: (at) => ({
      types: "respond error respond",
      errors: [["duplicate_response", at.of("<response>", 1)]],
      respond: ["The answer is 42.", "Actually, 43."],
    }),
  },
  {
    name: "three responses give two duplicate_response errors",
    text: `<response>a</response><thought>hmm</thought><response>b</response>\n<response>c</response>`,
    expect: (at) => ({
      types: "respond think error respond error respond",
      errors: [
        ["duplicate_response", at.of("<response>", 1)],
        ["duplicate_response", at.of("<response>", 2)],
      ],
      respond: ["a", "b", "c"],
    }),
  },
  {
    name: "<results> written by the model runs nothing inside it",
    text: `<action id="ls">${ok("list_files")}</action>\n<results>[{"id": "ls", "output": ["a.py"]}, <action id="rm">${ok("delete_file", { path: "a.py" })}</action>]</results>\n<response>Found a.py.</response>`,
    expect: (at) => ({
      types: "call error respond",
      errors: [["model_wrote_results", at.block("<results>", "</results>")]],
      calls: [{ id: "ls", name: "list_files", args: {}, action: TOOL_SYNC }],
      respond: ["Found a.py."],
    }),
  },
  {
    name: "an <action> inside a <thought> is thought text, not run",
    text: `<thought>I could write <action type="tool" id="x">{"name": "rm", "parameters": {}}</action> but will not.</thought>`,
    expect: () => ({
      types: "think",
      think: [
        'I could write <action type="tool" id="x">{"name": "rm", "parameters": {}}</action> but will not.',
      ],
    }),
  },
  {
    name: "a <thought> nested in a <thought> closes at the first </thought>",
    text: `<thought>Outer <thought>inner</thought> tail</thought>`,
    expect: (at) => ({
      types: "think error",
      errors: [["stray_text", { start: at.of("tail").start, end: at.of("</thought>", 1).end }]],
      think: ["Outer <thought>inner"],
    }),
  },
];

const endOfStream: Case[] = [
  {
    name: "unclosed thought",
    text: `<thought>Let me think about the schema and`,
    expect: (at) => ({
      types: "think error",
      errors: [["unclosed_block", at.toEnd("<thought>")]],
      think: ["Let me think about the schema and"],
    }),
  },
  {
    name: "unclosed response",
    text: `<thought>ok</thought>\n<response>The answer is\n\n`,
    expect: (at) => ({
      types: "think respond error",
      errors: [["unclosed_block", at.toEnd("<response>")]],
      think: ["ok"],
      respond: ["The answer is"],
    }),
  },
  {
    name: "unclosed action runs nothing and swallows what follows",
    text: `<action type="tool" id="a">\n{"name": "kv_get", "parameters": {"key": "k"}}\n<response>Got it.</response>`,
    expect: (at) => ({ types: "error", errors: [["unclosed_block", at.toEnd("<action")]] }),
  },
  {
    name: "half marker <act at the end",
    text: `<thought>Next: an action.</thought>\n<act`,
    expect: (at) => ({
      types: "think error",
      errors: [["stray_text", at.of("<act")]],
      think: ["Next: an action."],
    }),
  },
  {
    name: 'half tag <action type="tool" at the end',
    text: `<response>Working.</response>\n<action type="tool"`,
    expect: (at) => ({
      types: "respond error",
      errors: [["unclosed_block", at.toEnd("<action")]],
      respond: ["Working."],
    }),
  },
  {
    name: "half closing </acti at the end",
    text: `<action id="a">${KV}</acti`,
    expect: (at) => ({ types: "error", errors: [["unclosed_block", at.toEnd("<action")]] }),
  },
  {
    name: "half closing </respo at the end stays response text",
    text: `<response>Done.</respo`,
    expect: (at) => ({
      types: "respond error",
      errors: [["unclosed_block", at.toEnd("<response>")]],
      respond: ["Done.</respo"],
    }),
  },
];

const text: Case[] = [
  {
    name: "$variables in the response and parameters stay literal",
    text: `<action type="tool" mode="async" id="fetch">\n{"name": "web_scraper", "parameters": {"url": "$base/page", "ref": "$webpage"}, "output_key": "webpage"}\n</action>\n<response>The page $webpage costs $5 (see \${webpage} and $$).</response>`,
    expect: () => ({
      types: "call respond",
      calls: [
        {
          id: "fetch",
          name: "web_scraper",
          args: { url: "$base/page", ref: "$webpage" },
          action: { type: "tool", mode: "async", outputKey: "webpage" },
        },
      ],
      respond: [`The page $webpage costs $5 (see \${webpage} and $$).`],
    }),
  },
  {
    name: "astral characters and CJK everywhere (UTF-16 spans)",
    text: `<thought>😀 計画を立てる 𝔘</thought>\n<action id="翻訳😀">{"name": "translate", "parameters": {"text": "こんにちは 🌏"}}</action>\n🙂 余計な文\n<response>完了 ✅ 𝔘</response>`,
    expect: (at) => ({
      types: "think call error respond",
      errors: [["stray_text", at.of("🙂 余計な文")]],
      think: ["😀 計画を立てる 𝔘"],
      calls: [
        { id: "翻訳😀", name: "translate", args: { text: "こんにちは 🌏" }, action: TOOL_SYNC },
      ],
      respond: ["完了 ✅ 𝔘"],
    }),
  },
  {
    name: "CRLF line endings throughout",
    text: `<thought>\r\nFetch then answer.\r\n</thought>\r\n\r\n<action\r\n  type="tool"\r\n  mode="async"\r\n  id="a">\r\n{\r\n  "name": "kv_get",\r\n  "parameters": {"key": "user:42"}\r\n}\r\n</action>\r\nstray\r\n<response>\r\nLine 1\r\nLine 2\r\n</response>\r\n`,
    expect: (at) => ({
      types: "think call error respond",
      errors: [["stray_text", at.of("stray")]],
      think: ["Fetch then answer."],
      calls: [{ id: "a", ...KV_CALL, action: { type: "tool", mode: "async" } }],
      respond: ["Line 1\r\nLine 2"],
    }),
  },
  {
    name: "whitespace-only text between blocks is dropped",
    text: `  \n\t<thought>x</thought>\n\n \t\n<response>y</response>\n \n`,
    expect: () => ({ types: "think respond", think: ["x"], respond: ["y"] }),
  },
];

const SEED_PROTOCOL_FORMAT = `<thought>
Your reasoning here. Streams to user in real-time as it's generated.
Can be multiple sentences explaining your approach and planning.
</thought>

<action type="tool" mode="async" id="fetch1">
{
  "name": "web_scraper",
  "parameters": {
    "url": "https://example.com"
  },
  "output_key": "webpage_data"
}
</action>

<action type="tool" mode="async" id="fetch2">
{
  "name": "database_query",
  "parameters": {
    "query": "SELECT * FROM users"
  },
  "output_key": "user_data"
}
</action>

THOUGHT{
    - content: 
}

<action type="agent" mode="sync" id="analyze">
{
  "name": "data_analyzer",
  "parameters": {
    "webpage": "$webpage_data",
    "users": "$user_data"
  },
  "depends_on": ["fetch1", "fetch2"],
  "output_key": "analysis"
}
</action>

<response>
Based on my analysis of the data:

**Key Findings:**
- Finding 1
- Finding 2

**Recommendations:**
1. Recommendation 1
2. Recommendation 2
</response>
`;

const SEED_COMPLETE_EXAMPLE = `<thought>
I'll research this topic by:
1. Fetching Wikipedia article for background
2. Searching arXiv for recent papers
3. Getting latest news articles
4. Analyzing all sources together
5. Generating a comprehensive report
</thought>

<action type="tool" mode="async" id="wiki">
{
  "name": "web_scraper",
  "parameters": {"url": "https://en.wikipedia.org/wiki/AI"},
  "output_key": "wiki_data"
}
</action>

<action type="tool" mode="async" id="arxiv">
{
  "name": "arxiv_search",
  "parameters": {"query": "machine learning", "max_results": 10},
  "output_key": "papers"
}
</action>

<action type="tool" mode="async" id="news">
{
  "name": "news_api",
  "parameters": {"topic": "artificial intelligence", "days": 7},
  "output_key": "news_articles"
}
</action>

<action type="agent" mode="sync" id="analyze">
{
  "name": "comprehensive_analyzer",
  "parameters": {
    "wikipedia": "$wiki_data",
    "research_papers": "$papers",
    "news": "$news_articles"
  },
  "depends_on": ["wiki", "arxiv", "news"],
  "output_key": "comprehensive_analysis"
}
</action>

<action type="relic" mode="fire_and_forget" id="cache">
{
  "name": "results_cache",
  "parameters": {
    "key": "ai_research_report",
    "value": "$comprehensive_analysis",
    "ttl": 86400
  },
  "depends_on": ["analyze"]
}
</action>

<response>
# AI Research Report

## Overview
Based on analysis of Wikipedia, recent research papers, and news articles:

$comprehensive_analysis

## Key Trends
1. Transformer architectures dominate
2. Ethical AI gaining attention
3. Multi-modal models emerging

## Recommendations
- Focus on efficiency improvements
- Consider ethical implications
- Monitor regulatory developments
</response>
`;

const seed: Case[] = [
  {
    name: "the action design's 'Protocol Format' example, stray THOUGHT{…} included",
    text: SEED_PROTOCOL_FORMAT,
    expect: (at) => ({
      types: "think call call error call respond",
      errors: [["stray_text", at.block("THOUGHT{", "}")]],
      think: [
        "Your reasoning here. Streams to user in real-time as it's generated.\nCan be multiple sentences explaining your approach and planning.",
      ],
      calls: [
        {
          id: "fetch1",
          name: "web_scraper",
          args: { url: "https://example.com" },
          action: { type: "tool", mode: "async", outputKey: "webpage_data" },
        },
        {
          id: "fetch2",
          name: "database_query",
          args: { query: "SELECT * FROM users" },
          action: { type: "tool", mode: "async", outputKey: "user_data" },
        },
        {
          id: "analyze",
          name: "data_analyzer",
          args: { webpage: "$webpage_data", users: "$user_data" },
          action: {
            type: "agent",
            mode: "sync",
            outputKey: "analysis",
            dependsOn: ["fetch1", "fetch2"],
          },
        },
      ],
      respond: [
        "Based on my analysis of the data:\n\n**Key Findings:**\n- Finding 1\n- Finding 2\n\n**Recommendations:**\n1. Recommendation 1\n2. Recommendation 2",
      ],
    }),
  },
  {
    name: "the action design's 'Complete Example'",
    text: SEED_COMPLETE_EXAMPLE,
    expect: () => ({
      types: "think call call call call call respond",
      think: [
        "I'll research this topic by:\n1. Fetching Wikipedia article for background\n2. Searching arXiv for recent papers\n3. Getting latest news articles\n4. Analyzing all sources together\n5. Generating a comprehensive report",
      ],
      calls: [
        {
          id: "wiki",
          name: "web_scraper",
          args: { url: "https://en.wikipedia.org/wiki/AI" },
          action: { type: "tool", mode: "async", outputKey: "wiki_data" },
        },
        {
          id: "arxiv",
          name: "arxiv_search",
          args: { query: "machine learning", max_results: 10 },
          action: { type: "tool", mode: "async", outputKey: "papers" },
        },
        {
          id: "news",
          name: "news_api",
          args: { topic: "artificial intelligence", days: 7 },
          action: { type: "tool", mode: "async", outputKey: "news_articles" },
        },
        {
          id: "analyze",
          name: "comprehensive_analyzer",
          args: {
            wikipedia: "$wiki_data",
            research_papers: "$papers",
            news: "$news_articles",
          },
          action: {
            type: "agent",
            mode: "sync",
            outputKey: "comprehensive_analysis",
            dependsOn: ["wiki", "arxiv", "news"],
          },
        },
        {
          id: "cache",
          name: "results_cache",
          args: { key: "ai_research_report", value: "$comprehensive_analysis", ttl: 86400 },
          action: { type: "relic", mode: "fire_and_forget", dependsOn: ["analyze"] },
        },
      ],
      respond: [
        "# AI Research Report\n\n## Overview\nBased on analysis of Wikipedia, recent research papers, and news articles:\n\n$comprehensive_analysis\n\n## Key Trends\n1. Transformer architectures dominate\n2. Ethical AI gaining attention\n3. Multi-modal models emerging\n\n## Recommendations\n- Focus on efficiency improvements\n- Consider ethical implications\n- Monitor regulatory developments",
      ],
    }),
  },
  {
    name: "the action design's 'Variable References' example with its ← annotations",
    text: `<action type="tool" mode="async" id="fetch">\n{\n  "name": "web_scraper",\n  "parameters": {"url": "https://example.com"},\n  "output_key": "webpage"  ← Stores as $webpage\n}\n</action>\n\n<response>\nThe webpage at $webpage shows...  ← Can use in final response\n</response>`,
    expect: (at) => ({
      types: "error respond",
      errors: [["invalid_json", at.block("<action", "</action>")]],
      respond: ["The webpage at $webpage shows...  ← Can use in final response"],
    }),
  },
];

const CORPUS: Case[] = [
  ...attributes,
  ...brokenTags,
  ...bodies,
  ...strings,
  ...outside,
  ...endOfStream,
  ...text,
  ...seed,
];

describe("action dialect: malformed-input corpus", () => {
  it("has at least 45 cases with unique names", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(CORPUS.map((entry) => entry.name)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((entry) => [entry.name, entry] as const))("%s", (_name, entry) => {
    const events = parseInvariant("action", entry.text);
    checkCase(entry.text, events, entry.expect(locate(entry.text)));
  });
});

describe("action dialect: blocks over maxBlockBytes", () => {
  const data = "x".repeat(1500);
  const big = `<thought>Write the file.</thought>\n<action type="tool" id="big">\n{"name": "file_write", "parameters": {"path": "a.txt", "data": "${data}"}}\n</action>\n<action id="small">${KV}</action>\n<response>Written.</response>`;
  const options = { maxBlockBytes: 1000 };

  it("a huge action body is block_too_large, runs nothing, and parsing continues", () => {
    for (const chunks of [[big], charsOf(big)]) {
      const events = mergePieces(feedChunks("action", chunks, options));
      expect(events.map((event) => event.type).join(" ")).toBe("think error call respond");
      const error = events.find((event) => event.type === "error");
      expect(error?.code).toBe("block_too_large");
      expect(error?.span?.start).toBe(big.indexOf("<action"));
      const calls = events.filter((event): event is CallEvent => event.type === "call");
      expect(calls.map((call) => call.call)).toEqual([{ id: "small", ...KV_CALL }]);
    }
  });

  it("a huge action body's error spans the whole block, for any chunking", () => {
    const whole = canonical(feedChunks("action", [big], options));
    expect(canonical(feedChunks("action", charsOf(big), options))).toEqual(whole);
    const events = mergePieces(feedChunks("action", [big], options));
    const error = events.find((event) => event.type === "error");
    expect(error?.span).toEqual(locate(big).block("<action", "</action>"));
    expect(uncovered(big, events)).toEqual([]);
  });

  it("an over-long <action …> tag is block_too_large for any chunking", () => {
    const tag = `<action id="${"y".repeat(1200)}">${KV}</action>\n<response>done</response>`;
    for (const chunks of [[tag], charsOf(tag)]) {
      const events = mergePieces(feedChunks("action", chunks, options));
      expect(events.map((event) => event.type).join(" ")).toBe("error respond");
      const error = events.find((event) => event.type === "error");
      expect(error?.code).toBe("block_too_large");
      expect(error?.span).toEqual(locate(tag).block("<action", "</action>"));
    }
  });
});

describe("action dialect: bounds, recovery and ids", () => {
  it("an unterminated string swallowing </action> at the end of the stream recovers", () => {
    const input = `<action id="q">{"name": "search", "parameters": {"q": "oops</action> Searching now.`;
    const events = parseInvariant("action", input);
    const at = locate(input);
    checkCase(input, events, {
      types: "error error",
      errors: [
        ["invalid_json", at.block("<action", "</action>")],
        ["stray_text", at.of("Searching now.")],
      ],
    });
  });

  it("a generated id never collides with an id the model wrote", () => {
    const input = `<action id="t0-2">${KV}</action>\n<action>${KV}</action>`;
    const events = parseInvariant("action", input);
    checkCase(input, events, {
      types: "call call",
      calls: [
        { id: "t0-2", ...KV_CALL, action: TOOL_SYNC },
        { id: null, ...KV_CALL, action: TOOL_SYNC },
      ],
    });
  });
});
