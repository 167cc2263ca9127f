/**
 * The OpenAI Responses API's answer (`POST /responses`) as the same deltas a chat-completions
 * answer gives (`answer-decoder.ts`): a stream's typed events or a whole `response` object →
 * text, reasoning, native tool calls, usage, problems, and the response's id (what a later
 * call's `previous_response_id` names). Pure; what it cannot read is skipped or a `problem`.
 */
import { tokenCount } from "../metrics/token-counts";
import { isPlainObject } from "../protocol/safe-json";
import type { AnswerDelta } from "./answer-decoder";

/**
 * A reader of one stream's events. A stream is one response: its id is reported once, the
 * first time it shows (each event may repeat the response object; an upstream that changes it
 * mid-stream would otherwise fill the conversations' memory of answer ids with one call's).
 */
export function responsesStreamReader(): (frame: unknown, eventName: string) => AnswerDelta[] {
  let reported = false;
  const apart = itemBreaks();
  const idOf = (response: unknown): AnswerDelta[] => {
    const id = isPlainObject(response) && typeof response.id === "string" ? response.id : "";
    if (id === "" || reported) return [];
    reported = true;
    return [{ kind: "response", id }];
  };
  return (frame, eventName) => {
    if (!isPlainObject(frame)) return [];
    // The type is in the data; an upstream that sends it only as the SSE `event:` name is read too.
    const type = typeof frame.type === "string" ? frame.type : eventName;
    const index = outputIndex(frame.output_index);
    switch (type) {
      case "response.created":
      case "response.in_progress":
        return idOf(frame.response);
      case "response.output_text.delta":
      case "response.refusal.delta":
        return apart(index, textDelta("text", frame.delta));
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return textDelta("think", frame.delta);
      // A summary in several parts: a blank line between them, as the whole answer's are joined.
      case "response.reasoning_summary_part.added":
        return typeof frame.summary_index === "number" && frame.summary_index > 0
          ? [{ kind: "think", text: "\n\n" }]
          : [];
      case "response.output_item.added":
      case "response.output_item.done":
        return functionCall(frame.item, index, type === "response.output_item.done");
      case "response.function_call_arguments.delta":
        return typeof frame.delta === "string" ? [{ kind: "tool", index, args: frame.delta }] : [];
      case "response.function_call_arguments.done":
        return typeof frame.arguments === "string"
          ? [{ kind: "tool", index, args: frame.arguments, whole: true }]
          : [];
      case "response.completed":
      case "response.incomplete":
        return [...idOf(frame.response), ...responseUsage(frame.response)];
      case "response.failed":
        return [
          ...idOf(frame.response),
          failure(isPlainObject(frame.response) ? frame.response.error : undefined),
          ...responseUsage(frame.response),
        ];
      case "error":
        // Its fields at the top (`code`, `message`), or, from some servers, under `error`.
        return [failure(isPlainObject(frame.error) ? frame.error : frame)];
      default:
        // Events this reader has no use for (content parts, annotations, built-in tools' progress).
        return [];
    }
  };
}

/** A whole `response` object: its output items in order, then its usage. */
export function responsesWholeDeltas(body: unknown): AnswerDelta[] {
  if (!isPlainObject(body)) return [];
  const deltas: AnswerDelta[] = [];
  if (typeof body.id === "string" && body.id !== "") deltas.push({ kind: "response", id: body.id });
  const output = Array.isArray(body.output) ? body.output : [];
  const apart = itemBreaks();
  output.forEach((item: unknown, index: number) => {
    if (!isPlainObject(item)) return;
    if (item.type === "reasoning") {
      // Open models' full reasoning (`content`), else OpenAI's summary of it.
      const content = partsOf(item.content);
      const parts = content.length > 0 ? content : partsOf(item.summary);
      const text = parts.flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
      if (text.length > 0) deltas.push({ kind: "think", text: text.join("\n\n") });
    } else if (item.type === "message") {
      for (const part of partsOf(item.content)) {
        const text = part.type === "refusal" ? part.refusal : part.text;
        if (typeof text === "string" && text !== "")
          deltas.push(...apart(index, [{ kind: "text", text }]));
      }
    } else deltas.push(...functionCall(item, index, true));
  });
  if (isPlainObject(body.error)) deltas.push(failure(body.error));
  return [...deltas, ...responseUsage(body)];
}

/**
 * Text deltas of an output item, a blank line before them when they follow another item's
 * text (an answer of several message items), so its paragraphs do not run together.
 */
function itemBreaks(): (index: number, deltas: AnswerDelta[]) => AnswerDelta[] {
  let last: number | undefined;
  return (index, deltas) => {
    if (deltas.length === 0) return deltas;
    const after = last !== undefined && last !== index;
    last = index;
    return after ? [{ kind: "text", text: "\n\n" }, ...deltas] : deltas;
  };
}

function textDelta(kind: "text" | "think", delta: unknown): AnswerDelta[] {
  return typeof delta === "string" && delta !== "" ? [{ kind, text: delta }] : [];
}

/**
 * A `function_call` output item: opened (its id and name, arguments usually empty, streamed
 * next) or done (its arguments whole, which replace what was streamed).
 */
function functionCall(item: unknown, index: number, done: boolean): AnswerDelta[] {
  if (!isPlainObject(item) || item.type !== "function_call") return [];
  const args = typeof item.arguments === "string" ? item.arguments : "";
  return [
    {
      kind: "tool",
      index,
      ...(typeof item.call_id === "string" ? { id: item.call_id } : {}),
      ...(typeof item.name === "string" ? { name: item.name } : {}),
      args,
      ...(done && typeof item.arguments === "string" ? { whole: true } : {}),
    },
  ];
}

/** `output_index`, the slot a call's pieces join in; a missing or odd one is slot 0. */
function outputIndex(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;
}

function partsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/**
 * The response's `usage`: `input_tokens` include the cached ones, `output_tokens` the reasoning
 * ones (which the metric has no field of their own for: they are output the model was paid for).
 */
function responseUsage(response: unknown): AnswerDelta[] {
  if (!isPlainObject(response) || !isPlainObject(response.usage)) return [];
  const { usage } = response;
  const input = tokenCount(usage.input_tokens);
  const output = tokenCount(usage.output_tokens);
  if (input === undefined && output === undefined) return [];
  const details = isPlainObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const cacheRead = input === undefined ? undefined : tokenCount(details.cached_tokens);
  return [
    {
      kind: "usage",
      ...(input === undefined ? {} : { input }),
      ...(output === undefined ? {} : { output }),
      ...(cacheRead === undefined ? {} : { cacheRead }),
    },
  ];
}

function failure(error: unknown): AnswerDelta {
  if (isPlainObject(error) && typeof error.message === "string") {
    const code = typeof error.code === "string" && error.code !== "" ? ` (${error.code})` : "";
    return { kind: "problem", message: `The upstream sent an error${code}: ${error.message}` };
  }
  return { kind: "problem", message: "The upstream's response failed without saying why." };
}
