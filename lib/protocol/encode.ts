import {
  BUILTIN_DEFINITIONS,
  callFields,
  type DialectDefinition,
  type HermesDefinition,
} from "./definition";
import {
  assertNever,
  type CallEvent,
  type Dialect,
  type ProtocolEvent,
  type ResultPayload,
} from "./events";

type Spec = Dialect | DialectDefinition;
/** `action` keeps its own grammar; every other dialect is encoded from its definition. */
type Resolved = "action" | DialectDefinition;

function resolve(dialect: Spec): Resolved {
  if (typeof dialect !== "string") return dialect;
  return dialect === "action" ? "action" : BUILTIN_DEFINITIONS[dialect];
}

/**
 * Events → wire text, the inverse of the parsers: `parse(encodeTurn(d, events))` gives the
 * same conversation events back (ids and spans aside). Used by context assembly, the system
 * prompt's example and round-trip tests. Only model-written events are encoded; consecutive
 * calls form one batch. Content that contains its own block's closing marker cannot be
 * written in a tag dialect; a parser never produces such content. A dialect without an end
 * marker (hermes) writes nothing for `end`: a turn without calls ends the run anyway.
 */
export function encodeTurn(dialect: Spec, events: readonly ProtocolEvent[]): string {
  const resolved = resolve(dialect);
  const blocks: string[] = [];
  let batch: CallEvent[] = [];
  const flush = () => {
    if (batch.length > 0) blocks.push(encodeBatch(resolved, batch));
    batch = [];
  };
  for (const event of events) {
    if (event.type === "call") {
      batch.push(event);
      continue;
    }
    if (event.type === "execute") {
      flush();
      continue;
    }
    const block = encodeOne(resolved, event);
    if (block === null) continue;
    flush();
    blocks.push(block);
  }
  flush();
  const delimiter = resolved !== "action" && resolved.family === "delimiter";
  return blocks.join(delimiter ? "\n" : "\n\n");
}

function encodeOne(dialect: Resolved, event: ProtocolEvent): string | null {
  switch (event.type) {
    case "think":
      return encodeText(dialect, "think", event.content);
    case "respond":
      return encodeText(dialect, "respond", event.content);
    case "end":
      if (dialect === "action" || dialect.family === "hermes") return null;
      return dialect.end ?? null;
    case "user":
    case "call":
    case "execute":
    case "result":
    case "metric":
    case "error":
    case "interrupt":
      return null;
    default:
      return assertNever(event, "event");
  }
}

function encodeText(dialect: Resolved, kind: "think" | "respond", content: string): string {
  if (dialect === "action") {
    const tag = kind === "think" ? "thought" : "response";
    return `<${tag}>${content}</${tag}>`;
  }
  switch (dialect.family) {
    case "delimiter":
      return `${dialect[kind]} ${content}`;
    case "hermes":
      // Text outside blocks is the response: hermes has no respond markers.
      return kind === "think" ? `${dialect.think[0]}${content}${dialect.think[1]}` : content;
    case "tags": {
      const markers = kind === "think" ? dialect.think : dialect.respond;
      // Bare text outside blocks is a response too, and may hold a stray closing marker.
      if (markers === undefined || (kind === "respond" && content.includes(markers[1])))
        return content;
      return `${markers[0]}${content}${markers[1]}`;
    }
    default:
      return assertNever(dialect, "dialect family");
  }
}

function encodeBatch(dialect: Resolved, calls: readonly CallEvent[]): string {
  if (dialect === "action") return calls.map(encodeAction).join("\n\n");
  const fields = callFields(dialect);
  const json = ({ call }: CallEvent) =>
    JSON.stringify({ [fields.name]: call.name, [fields.args]: call.args });
  switch (dialect.family) {
    case "tags":
      return `${dialect.batch[0]}\n[\n  ${calls.map(json).join(",\n  ")}\n]\n${dialect.batch[1]}`;
    case "delimiter":
      return `${calls.map((call) => `${dialect.call} ${json(call)}`).join("\n")}\n${dialect.execute}`;
    case "hermes":
      return calls
        .map((call) => `${dialect.call[0]}\n${json(call)}\n${dialect.call[1]}`)
        .join("\n");
    default:
      return assertNever(dialect, "dialect family");
  }
}

function encodeAction({ call, action }: CallEvent): string {
  const type = action?.type ?? "tool";
  const mode = action?.mode ?? "sync";
  const body: Record<string, unknown> = { name: call.name, parameters: call.args };
  if (action?.outputKey !== undefined) body.output_key = action.outputKey;
  if (action?.dependsOn !== undefined) body.depends_on = action.dependsOn;
  if (action?.timeout !== undefined) body.timeout = action.timeout;
  if (action?.retry !== undefined) body.retry = action.retry;
  if (action?.onError !== undefined) body.on_error = action.onError;
  return `<action type="${type}" mode="${mode}" id="${call.id}">\n${JSON.stringify(body)}\n</action>`;
}

/** One result as the model sees it: tool, status, content — and the action id. */
export interface WireResult {
  callId: string;
  payload: ResultPayload;
}

/**
 * The results message sent back to the model after a batch (docs/tools-and-context.md): a JSON array inside
 * the results markers (xml, tags, action), after the results marker (delimiter; a `[` it
 * opens is closed), or one `<tool_response>{"name", "content"}</tool_response>` per call
 * (hermes), always in call order.
 */
export function encodeResults(dialect: Spec, results: readonly WireResult[]): string {
  const resolved = resolve(dialect);
  if (resolved !== "action" && resolved.family === "hermes")
    return encodeToolResponses(resolved, results);
  const items = results.map(({ callId, payload }) => {
    const item = { tool: payload.tool, status: payload.status, content: payload.content };
    return JSON.stringify(resolved === "action" ? { id: callId, ...item } : item);
  });
  const array = `[\n  ${items.join(",\n  ")}\n]`;
  if (resolved === "action") return `<results>\n${array}\n</results>`;
  if (resolved.family === "delimiter") {
    const close = resolved.results.startsWith("[") ? "]" : "";
    return `${resolved.results} ${array}${close}`;
  }
  return `${resolved.results[0]}\n${array}\n${resolved.results[1]}`;
}

function encodeToolResponses(dialect: HermesDefinition, results: readonly WireResult[]): string {
  const name = callFields(dialect).name;
  return results
    .map(({ payload }) => {
      const body = JSON.stringify({ [name]: payload.tool, content: payload.content });
      return `${dialect.results[0]}\n${body}\n${dialect.results[1]}`;
    })
    .join("\n");
}
