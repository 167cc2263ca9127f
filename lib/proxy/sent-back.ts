/**
 * What the agent sent since the model's last turn, as events (docs/capture-proxy.md): the tool results it
 * sends back show as `result` events under the calls they answer (in call order), and a new
 * user message as a `user` event. Wirescope ran none of these tools; the agent did. Pure.
 */
import type { ProtocolEvent, ResultStatus, ToolCall } from "../protocol/events";
import { isPlainObject, safeParseJson } from "../protocol/safe-json";
import { textOf } from "./request-view";

/** One result as the agent wrote it. */
export interface SentResult {
  /** The native call it answers (OpenAI `tool_call_id`, Anthropic `tool_use_id`), when said. */
  ref?: string;
  tool?: string;
  status: ResultStatus;
  content: unknown;
}

export interface SentBack {
  results: SentResult[];
  /** User words that are not a results message, in order. */
  user: string[];
}

/** Reads messages (OpenAI or Anthropic shape, either) the agent added after the model's answer. */
export function readSentBack(messages: readonly unknown[]): SentBack {
  const sent: SentBack = { results: [], user: [] };
  for (const message of messages) {
    if (!isPlainObject(message)) continue;
    if (message.role === "tool") {
      sent.results.push({
        ...refOf(message.tool_call_id),
        status: "success",
        content: contentValue(textOf(message.content)),
      });
    } else if (message.role === "user") {
      readUser(message.content, sent);
    }
  }
  return sent;
}

/**
 * The native call ids the messages name (an assistant message's OpenAI `tool_calls` or
 * Anthropic `tool_use` blocks, and the results answering them): an agent echoes its history,
 * so these tell which earlier answer it is continuing.
 */
export function echoedCallIds(messages: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === "string" && value !== "") ids.add(value);
  };
  for (const message of messages) {
    if (!isPlainObject(message)) continue;
    add(message.tool_call_id);
    if (Array.isArray(message.tool_calls))
      for (const call of message.tool_calls) if (isPlainObject(call)) add(call.id);
    if (Array.isArray(message.content))
      for (const block of message.content) {
        if (!isPlainObject(block)) continue;
        if (block.type === "tool_use") add(block.id);
        if (block.type === "tool_result") add(block.tool_use_id);
      }
  }
  return ids;
}

function refOf(value: unknown): { ref?: string } {
  return typeof value === "string" && value !== "" ? { ref: value } : {};
}

function readUser(content: unknown, sent: SentBack): void {
  const blocks = Array.isArray(content) ? content : [content];
  for (const block of blocks) {
    if (isPlainObject(block) && block.type === "tool_result") {
      sent.results.push({
        ...refOf(block.tool_use_id),
        status: block.is_error === true ? "failure" : "success",
        content: contentValue(textOf(block.content)),
      });
      continue;
    }
    const text = typeof block === "string" ? block : isPlainObject(block) ? textOf([block]) : "";
    if (text.trim() === "") continue;
    const results = resultsInText(text);
    if (results === undefined) sent.user.push(text);
    else sent.results.push(...results);
  }
}

/** Results written in a dialect's own format, or `undefined` when the text is not one. */
export function resultsInText(text: string): SentResult[] | undefined {
  const trimmed = text.trim();
  const tags = /^<results>([\s\S]*)<\/results>$/.exec(trimmed);
  if (tags !== null) return arrayOf(tags[1] ?? "");
  const system = /^\[SYSTEM:([\s\S]*)\]$/.exec(trimmed);
  if (system !== null) return arrayOf(system[1] ?? "");
  if (trimmed.startsWith("<tool_response>")) {
    return [...trimmed.matchAll(/<tool_response>([\s\S]*?)<\/tool_response>/g)].map((match) =>
      itemOf(match[1] ?? ""),
    );
  }
  return undefined;
}

function arrayOf(json: string): SentResult[] {
  const parsed = safeParseJson(json.trim());
  if (!parsed.ok || !Array.isArray(parsed.value))
    return [{ status: "success", content: json.trim() }];
  return parsed.value.map(fromObject);
}

function itemOf(json: string): SentResult {
  const parsed = safeParseJson(json.trim());
  return parsed.ok ? fromObject(parsed.value) : { status: "success", content: json.trim() };
}

function fromObject(value: unknown): SentResult {
  if (!isPlainObject(value)) return { status: "success", content: value };
  const tool =
    typeof value.tool === "string"
      ? value.tool
      : typeof value.name === "string"
        ? value.name
        : undefined;
  const status: ResultStatus =
    value.status === "failure" || value.status === "skipped" ? value.status : "success";
  return { ...(tool === undefined ? {} : { tool }), status, content: value.content ?? value };
}

function contentValue(text: string): unknown {
  const parsed = safeParseJson(text);
  return parsed.ok && typeof parsed.value === "object" ? parsed.value : text;
}

/**
 * Events for what was sent back: each result under the call it answers, then the user's words.
 * A result naming a native call's id answers that call (`nativeIds`: the upstream ids of the
 * last turn's native calls, which were written out after its text calls, so they are the last
 * calls; each answered once); any other result answers the call at its own position.
 */
export function sentBackEvents(
  sent: SentBack,
  calls: readonly ToolCall[],
  turn: number | undefined,
  clock: () => number,
  nextId: () => string,
  nativeIds: readonly (string | undefined)[] = [],
): ProtocolEvent[] {
  const firstNative = calls.length - nativeIds.length;
  // An upstream may give two calls one id: the k-th result naming it answers the k-th of them.
  const answered = new Set<number>();
  const callFor = (result: SentResult, index: number): ToolCall | undefined => {
    if (result.ref !== undefined && firstNative >= 0) {
      const native = nativeIds.findIndex((id, at) => id === result.ref && !answered.has(at));
      if (native >= 0) {
        answered.add(native);
        return calls[firstNative + native];
      }
    }
    return calls[index];
  };
  const events: ProtocolEvent[] = sent.results.map((result, index) => {
    const call = callFor(result, index);
    return {
      type: "result",
      id: nextId(),
      timestamp: clock(),
      callId: call?.id ?? `unmatched-${index + 1}`,
      ...(turn === undefined ? {} : { turn }),
      payload: {
        tool: result.tool ?? call?.name ?? "unknown",
        status: result.status,
        content: result.content,
        outcome:
          call === undefined ? "Sent back by the agent for no call seen" : "Sent back by the agent",
        durationMs: 0,
      },
    };
  });
  for (const content of sent.user) {
    events.push({ type: "user", id: nextId(), timestamp: clock(), content });
  }
  return events;
}
