import { callFields, type DialectDefinition } from "../protocol/definition";
import { encodeResults, encodeTurn } from "../protocol/encode";
import { assertNever, type Dialect, type ProtocolEvent } from "../protocol/events";
import type { ToolDescription } from "../tools";

const span = { start: 0, end: 0 };
const EXAMPLE_TURN: ProtocolEvent[] = [
  {
    type: "think",
    id: "1",
    timestamp: 0,
    turn: 0,
    span,
    content: "I should see which files exist, then read the config.",
  },
  {
    type: "call",
    id: "2",
    timestamp: 0,
    turn: 0,
    span,
    call: { id: "list1", name: "list", args: { path: "." } },
  },
  {
    type: "call",
    id: "3",
    timestamp: 0,
    turn: 0,
    span,
    call: { id: "read1", name: "read", args: { file: "config.json" } },
  },
];
const EXAMPLE_RESULTS = [
  {
    callId: "list1",
    payload: {
      tool: "list",
      status: "success" as const,
      content: ["config.json", "main.py"],
      outcome: "",
      durationMs: 0,
    },
  },
  {
    callId: "read1",
    payload: {
      tool: "read",
      status: "success" as const,
      content: '{"debug": false}',
      outcome: "",
      durationMs: 0,
    },
  },
];
const EXAMPLE_ANSWER: ProtocolEvent[] = [
  {
    type: "respond",
    id: "4",
    timestamp: 0,
    turn: 1,
    span,
    content: "There are two files; debug mode is off in config.json.",
  },
  { type: "end", id: "5", timestamp: 0 },
];

/**
 * The system prompt that teaches a dialect: its markers, one worked example (written by the
 * encoder, so it is exactly what the parser accepts) and the tools with their JSON Schemas.
 * Every run asks for it (a continuation twice) and nearly always for the same few: each is
 * written once per process and the same string handed out again (about 50 µs a prompt saved;
 * the demo model's token estimate also remembers its JSON length by that string).
 */
export function systemPrompt(
  dialect: Dialect | DialectDefinition,
  tools: readonly ToolDescription[],
): string {
  const key = cacheKey(dialect, tools);
  const known = written.get(key);
  if (known !== undefined) return known;
  const prompt = writePrompt(dialect, tools);
  // Bounded: tool selections and user-defined dialects come from requests.
  if (written.size >= MAX_WRITTEN) written.clear();
  written.set(key, prompt);
  return prompt;
}

const MAX_WRITTEN = 64;
const written = new Map<string, string>();

/**
 * What the prompt is written from: the dialect, and each tool's name, description and schema.
 * A schema stands by its identity (the registry converts each once and shares it, never
 * changed), so its JSON is not written out for the key.
 */
function cacheKey(dialect: Dialect | DialectDefinition, tools: readonly ToolDescription[]) {
  let key = typeof dialect === "string" ? dialect : JSON.stringify(dialect);
  for (const tool of tools) {
    key += `\u0000${tool.name}\u0001${tool.description}\u0001${schemaId(tool.inputSchema)}`;
  }
  return key;
}

const schemaIds = new WeakMap<object, number>();
let schemaCount = 0;

function schemaId(schema: object): number {
  const known = schemaIds.get(schema);
  if (known !== undefined) return known;
  schemaCount += 1;
  schemaIds.set(schema, schemaCount);
  return schemaCount;
}

function writePrompt(
  dialect: Dialect | DialectDefinition,
  tools: readonly ToolDescription[],
): string {
  const example = [
    encodeTurn(dialect, exampleTurn(dialect)),
    `(the system answers)\n${encodeResults(dialect, EXAMPLE_RESULTS)}`,
    encodeTurn(dialect, EXAMPLE_ANSWER),
  ].join("\n\n");
  const toolList = tools
    .map(
      (tool) =>
        `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.inputSchema)}`,
    )
    .join("\n");
  return [
    "You are an agent that works by writing a text protocol. Follow it exactly; the system parses what you write.",
    typeof dialect === "string" ? RULES[dialect] : definitionRules(dialect),
    `Example:\n\n${example}`,
    tools.length > 0 ? `Tools:\n${toolList}` : "No tools are available in this conversation.",
  ].join("\n\n");
}

function exampleTurn(dialect: Dialect | DialectDefinition): ProtocolEvent[] {
  if (dialect !== "action") return EXAMPLE_TURN;
  return EXAMPLE_TURN.map((event) =>
    event.type === "call"
      ? { ...event, action: { type: "tool", mode: "async", outputKey: `${event.call.id}_out` } }
      : event,
  );
}

const RULES: Record<Dialect, string> = {
  xml: `Protocol (xml):
- <think>…</think>: your private reasoning.
- <execute>[{"name": "tool", "args": {…}}, …]</execute>: a JSON array of tool calls. They run in parallel; results come back in the same order. Stop writing after </execute> and wait.
- The system answers with <results>[{"tool", "status", "content"}, …]</results>. Never write <results> yourself.
- <respond>…</respond>: your answer to the user (markdown).
- <end>: the task is complete.
Put calls that depend on each other in separate <execute> blocks.`,
  delimiter: `Protocol (delimiter):
- §think: your private reasoning.
- §call: {"name": "tool", "args": {…}} — one call per line, valid JSON.
- §execute — runs the calls written since the last §execute. Stop writing after it and wait.
- The system answers with [SYSTEM: [{"tool", "status", "content"}, …]]. Never write [SYSTEM: yourself.
- §respond: your answer to the user (markdown).
- §end — the task is complete.`,
  action: `Protocol (action):
- <thought>…</thought>: your reasoning, shown live.
- <action type="tool" mode="async" id="unique_id">{"name": "tool", "parameters": {…}, "output_key": "name", "depends_on": ["id"], "timeout": 30, "retry": 1, "on_error": "skip"}</action>: runs the moment </action> is written. mode: sync (later actions wait for it), async (runs in parallel), fire_and_forget (result not returned). Only "name" and "parameters" are required.
- "$name" in parameters or in the response is replaced by the output stored under output_key.
- The system answers with <results>[{"id", "tool", "status", "content"}, …]</results> before your next turn. Never write <results> yourself.
- <response>…</response>: your one answer to the user in this turn (markdown). Write nothing outside these blocks.`,
  hermes: `Protocol (hermes):
- <think>…</think>: your private reasoning.
- <tool_call>{"name": "tool", "arguments": {…}}</tool_call>: one tool call, valid JSON. Write as many as you need; they run in parallel after your turn, and results come back in the same order.
- The system answers with one <tool_response>{"name", "content"}</tool_response> per call. Never write <tool_response> yourself.
- Text outside these blocks is your answer to the user (markdown). A turn without tool calls ends the task.`,
};

/** The rules of a user-defined dialect, written from its markers and field names. */
function definitionRules(definition: DialectDefinition): string {
  const { name, args } = callFields(definition);
  const call = `{"${name}": "tool", "${args}": {…}}`;
  const head = `Protocol (${definition.name}):`;
  switch (definition.family) {
    case "tags": {
      const [think, batch, results] = [definition.think, definition.batch, definition.results];
      const respond = definition.respond;
      return [
        head,
        `- ${think[0]}…${think[1]}: your private reasoning.`,
        `- ${batch[0]}[${call}, …]${batch[1]}: a JSON array of tool calls. They run in parallel; results come back in the same order. Stop writing after ${batch[1]} and wait.`,
        `- The system answers with ${results[0]}[{"tool", "status", "content"}, …]${results[1]}. Never write ${results[0]} yourself.`,
        respond === undefined
          ? "- Text outside these blocks is your answer to the user (markdown)."
          : `- ${respond[0]}…${respond[1]}: your answer to the user (markdown).`,
        definition.end === undefined
          ? "- A turn without tool calls ends the task."
          : `- ${definition.end}: the task is complete.`,
      ].join("\n");
    }
    case "delimiter":
      return [
        head,
        `- ${definition.think} your private reasoning.`,
        `- ${definition.call} ${call} — one call per line, valid JSON.`,
        `- ${definition.execute} — runs the calls written since the last ${definition.execute}. Stop writing after it and wait.`,
        `- The system answers with ${definition.results} [{"tool", "status", "content"}, …]. Never write ${definition.results} yourself.`,
        `- ${definition.respond} your answer to the user (markdown).`,
        `- ${definition.end} — the task is complete.`,
      ].join("\n");
    case "hermes": {
      const [think, open, results] = [definition.think, definition.call, definition.results];
      return [
        head,
        `- ${think[0]}…${think[1]}: your private reasoning.`,
        `- ${open[0]}${call}${open[1]}: one tool call, valid JSON. Write as many as you need; they run in parallel after your turn, and results come back in the same order.`,
        `- The system answers with one ${results[0]}{"${name}", "content"}${results[1]} per call. Never write ${results[0]} yourself.`,
        "- Text outside these blocks is your answer to the user (markdown). A turn without tool calls ends the task.",
      ].join("\n");
    }
    default:
      return assertNever(definition, "dialect family");
  }
}
