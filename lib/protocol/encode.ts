import {
  assertNever,
  type CallEvent,
  type Dialect,
  type ProtocolEvent,
  type ResultPayload,
} from "./events";

/**
 * Events → wire text, the inverse of the parsers: `parse(encodeTurn(d, events))` gives the
 * same conversation events back (ids and spans aside). Used by context assembly and by
 * round-trip tests. Only model-written events are encoded; consecutive calls form one batch.
 * Content that contains its own block's closing marker cannot be written in a tag dialect;
 * a parser never produces such content.
 */
export function encodeTurn(dialect: Dialect, events: readonly ProtocolEvent[]): string {
  const blocks: string[] = [];
  let batch: CallEvent[] = [];
  const flush = () => {
    if (batch.length > 0) blocks.push(encodeBatch(dialect, batch));
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
    const block = encodeOne(dialect, event);
    if (block === null) continue;
    flush();
    blocks.push(block);
  }
  flush();
  return blocks.join(dialect === "delimiter" ? "\n" : "\n\n");
}

function encodeOne(dialect: Dialect, event: ProtocolEvent): string | null {
  switch (event.type) {
    case "think":
      return wrap(dialect, "think", event.content);
    case "respond":
      return wrap(dialect, "respond", event.content);
    case "end":
      if (dialect === "action") return null;
      return dialect === "xml" ? "<end>" : "§end";
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

const TAGS: Record<Exclude<Dialect, "delimiter">, Record<"think" | "respond", string>> = {
  xml: { think: "think", respond: "respond" },
  action: { think: "thought", respond: "response" },
};

function wrap(dialect: Dialect, kind: "think" | "respond", content: string): string {
  if (dialect === "delimiter") return `§${kind}: ${content}`;
  const tag = TAGS[dialect][kind];
  // Bare text outside blocks is a response in xml, and may hold a stray `</respond>`.
  if (dialect === "xml" && kind === "respond" && content.includes("</respond>")) return content;
  return `<${tag}>${content}</${tag}>`;
}

function encodeBatch(dialect: Dialect, calls: readonly CallEvent[]): string {
  switch (dialect) {
    case "xml": {
      const items = calls.map(({ call }) => JSON.stringify({ name: call.name, args: call.args }));
      return `<execute>\n[\n  ${items.join(",\n  ")}\n]\n</execute>`;
    }
    case "delimiter": {
      const lines = calls.map(
        ({ call }) => `§call: ${JSON.stringify({ name: call.name, args: call.args })}`,
      );
      return `${lines.join("\n")}\n§execute`;
    }
    case "action":
      return calls.map(encodeAction).join("\n\n");
    default:
      return assertNever(dialect, "dialect");
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

/** One result as the model sees it (seed 003): tool, status, content — and the action id. */
export interface WireResult {
  callId: string;
  payload: ResultPayload;
}

/** The results message sent back to the model after a batch (spec §5). */
export function encodeResults(dialect: Dialect, results: readonly WireResult[]): string {
  const items = results.map(({ callId, payload }) => {
    const item = { tool: payload.tool, status: payload.status, content: payload.content };
    return JSON.stringify(dialect === "action" ? { id: callId, ...item } : item);
  });
  const array = `[\n  ${items.join(",\n  ")}\n]`;
  return dialect === "delimiter" ? `[SYSTEM: ${array}]` : `<results>\n${array}\n</results>`;
}
