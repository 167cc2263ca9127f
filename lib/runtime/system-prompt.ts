import { encodeResults, encodeTurn } from "../protocol/encode";
import type { Dialect, ProtocolEvent } from "../protocol/events";
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
 */
export function systemPrompt(dialect: Dialect, tools: readonly ToolDescription[]): string {
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
    RULES[dialect],
    `Example:\n\n${example}`,
    tools.length > 0 ? `Tools:\n${toolList}` : "No tools are available in this conversation.",
  ].join("\n\n");
}

function exampleTurn(dialect: Dialect): ProtocolEvent[] {
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
};
