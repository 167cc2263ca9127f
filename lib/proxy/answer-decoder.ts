/**
 * Reads the model's text out of an upstream answer as its bytes pass through (docs/capture-proxy.md):
 * OpenAI chat-completions, OpenAI responses (`responses-answer.ts`) and Anthropic messages, streamed (SSE, decoded incrementally with
 * eventsource-parser) or whole (JSON, kept up to a cap and read at the end). Never throws on
 * what the upstream sends: what it cannot read becomes a `problem` delta.
 */
import { createParser } from "eventsource-parser";
import { tokenCount } from "../metrics/token-counts";
import { isPlainObject, safeParseJson } from "../protocol/safe-json";
import { responsesStreamReader, responsesWholeDeltas } from "./responses-answer";
import type { UpstreamFormat } from "./upstreams";

/**
 * The API an answer comes from: an upstream's format (`openai`: chat completions, `anthropic`:
 * messages), or `responses`, OpenAI's Responses API.
 */
export type AnswerApi = UpstreamFormat | "responses";

export type AnswerDelta =
  | { kind: "text"; text: string }
  | { kind: "think"; text: string }
  /**
   * What could not be read: the upstream's fault (`provider`, the default), or this recorder's
   * cap on what it reads (`internal`: the answer itself was fine and reached the client).
   */
  | { kind: "problem"; message: string; code?: "internal" }
  /**
   * A piece of a native tool call (OpenAI `tool_calls` or `function_call` items, Anthropic
   * `tool_use`): the pieces of one `index` join into one call; `args` is JSON text, streamed in
   * parts. `whole`: `args` are the call's arguments in full (a Responses stream repeats them when
   * the call is done), which replace the pieces.
   */
  | { kind: "tool"; index: number; id?: string; name?: string; args: string; whole?: boolean }
  /** The id the upstream gave this answer (a Responses `response.id`). */
  | { kind: "response"; id: string }
  /**
   * Token usage the provider reported (either count may come alone, in any frame). `input`
   * is every input token; `cacheRead` / `cacheWrite` are the parts of it the provider's prompt
   * cache served or stored, when it said so.
   */
  | {
      kind: "usage";
      input?: number;
      output?: number;
      cacheRead?: number;
      cacheWrite?: number;
      /** Of `cacheWrite`, written to Anthropic's 1-hour cache (2 × input where 5 minutes cost 1.25 ×). */
      cacheWrite1h?: number;
    };

export interface AnswerDecoder {
  push(bytes: Uint8Array): AnswerDelta[];
  end(): AnswerDelta[];
}

export function createAnswerDecoder(
  api: AnswerApi,
  streaming: boolean,
  maxJsonBytes: number,
): AnswerDecoder {
  return streaming ? sseDecoder(api, maxJsonBytes) : jsonDecoder(api, maxJsonBytes);
}

/** How one SSE event of `api` becomes deltas (`eventName`: its `event:` field, or "message"). */
function streamReader(api: AnswerApi): (frame: unknown, eventName: string) => AnswerDelta[] {
  if (api === "responses") return responsesStreamReader();
  return api === "openai" ? openaiStreamDeltas : anthropicStreamDeltas;
}

/**
 * SSE, one event at a time. The parser holds an event until its blank line, so an event is
 * capped at `maxEventChars`: past it (an upstream that never ends its event) the rest of the
 * answer is not read for the recording, and a `problem` says so; the client still gets it all.
 */
function sseDecoder(api: AnswerApi, maxEventChars: number): AnswerDecoder {
  const read = streamReader(api);
  const text = new TextDecoder();
  let out: AnswerDelta[] = [];
  /** Characters fed since the last blank line: an upper bound on what the parser holds. */
  let pending = 0;
  let over = false;
  const parser = createParser({
    onEvent(message) {
      if (message.data === "[DONE]") return;
      const parsed = safeParseJson(message.data);
      if (!parsed.ok) {
        out.push({ kind: "problem", message: `An SSE frame is not JSON: ${parsed.error}` });
        return;
      }
      for (const delta of read(parsed.value, message.event ?? "message")) out.push(delta);
    },
    onError(error) {
      out.push({ kind: "problem", message: `Unreadable SSE: ${error.message}` });
    },
  });
  const take = () => {
    const taken = out;
    out = [];
    return taken;
  };
  return {
    push(bytes) {
      if (over) return [];
      const decoded = text.decode(bytes, { stream: true });
      const boundary = lastBlankLine(decoded);
      pending = boundary < 0 ? pending + decoded.length : decoded.length - boundary;
      if (pending > maxEventChars) {
        over = true;
        parser.reset();
        out.push({
          kind: "problem",
          message: `An SSE event went on past ${maxEventChars} characters without ending; the rest of the answer reached the client but was not read.`,
        });
        return take();
      }
      parser.feed(decoded);
      return take();
    },
    end() {
      if (over) return [];
      parser.feed(text.decode());
      parser.reset({ consume: true });
      return take();
    },
  };
}

/** Where the text after the last blank line (an SSE event's end) starts, or -1. */
function lastBlankLine(text: string): number {
  const lf = text.lastIndexOf("\n\n");
  const crlf = text.lastIndexOf("\r\n\r\n");
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
}

function jsonDecoder(api: AnswerApi, maxBytes: number): AnswerDecoder {
  const parts: Uint8Array[] = [];
  let size = 0;
  let over = false;
  return {
    push(bytes) {
      size += bytes.byteLength;
      if (size > maxBytes) over = true;
      else parts.push(bytes);
      return [];
    },
    end() {
      if (over) {
        return [
          {
            kind: "problem",
            message: `The answer (${size} bytes) is over the recording cap of ${maxBytes} bytes; it reached the client but was not read.`,
            code: "internal",
          },
        ];
      }
      const body = Buffer.concat(parts).toString("utf8");
      const parsed = safeParseJson(body);
      if (!parsed.ok)
        return [{ kind: "problem", message: `The answer is not JSON: ${parsed.error}` }];
      if (api === "responses") return responsesWholeDeltas(parsed.value);
      return api === "openai"
        ? openaiWholeDeltas(parsed.value)
        : anthropicWholeDeltas(parsed.value);
    },
  };
}

/** The first choice's `delta`: `content`, and reasoning as `reasoning_content` or `reasoning`. */
function openaiStreamDeltas(frame: unknown): AnswerDelta[] {
  if (!isPlainObject(frame)) return [];
  if (isPlainObject(frame.error)) return [{ kind: "problem", message: errorText(frame.error) }];
  const choice = firstChoice(frame.choices);
  const deltas = isPlainObject(choice) ? openaiMessageDeltas(choice.delta) : [];
  // The last frame carries `usage` when the client asked (`stream_options.include_usage`).
  return [...deltas, ...openaiUsage(frame.usage)];
}

function openaiWholeDeltas(body: unknown): AnswerDelta[] {
  if (!isPlainObject(body)) return [];
  const choice = firstChoice(body.choices);
  const deltas = isPlainObject(choice) ? openaiMessageDeltas(choice.message) : [];
  return [...deltas, ...openaiUsage(body.usage)];
}

/**
 * Choice 0, the one recorded. An agent asking for `n` > 1 gets several choices; a stream sends
 * each frame's deltas under their choice's `index` (interleaved, one or more per frame), so
 * a frame's first entry may belong to another choice: taken as it came, every choice's text
 * and tool calls would be run together into one answer. An entry without `index` is choice 0.
 */
function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices)
    if (isPlainObject(choice) && (choice.index === undefined || choice.index === 0)) return choice;
  return undefined;
}

function openaiMessageDeltas(message: unknown): AnswerDelta[] {
  if (!isPlainObject(message)) return [];
  const deltas: AnswerDelta[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === "string" && reasoning !== "")
    deltas.push({ kind: "think", text: reasoning });
  if (typeof message.content === "string" && message.content !== "") {
    deltas.push({ kind: "text", text: message.content });
  }
  if (Array.isArray(message.tool_calls)) {
    message.tool_calls.forEach((call: unknown, position: number) => {
      const delta = openaiToolDelta(call, position);
      if (delta !== undefined) deltas.push(delta);
    });
  }
  return deltas;
}

/** One entry of `tool_calls`: a whole call, or (streamed) a piece of the call at `index`. */
function openaiToolDelta(call: unknown, position: number): AnswerDelta | undefined {
  if (!isPlainObject(call)) return undefined;
  const fn = isPlainObject(call.function) ? call.function : {};
  const index =
    typeof call.index === "number" && Number.isInteger(call.index) ? call.index : position;
  return {
    kind: "tool",
    index,
    ...(typeof call.id === "string" ? { id: call.id } : {}),
    ...(typeof fn.name === "string" ? { name: fn.name } : {}),
    args: typeof fn.arguments === "string" ? fn.arguments : "",
  };
}

/**
 * `content_block_delta` with `text_delta`, `thinking_delta` or `input_json_delta` (a `tool_use`
 * block's input, opened by its `content_block_start`); `error` events.
 */
function anthropicStreamDeltas(frame: unknown): AnswerDelta[] {
  if (!isPlainObject(frame)) return [];
  if (frame.type === "error") return [{ kind: "problem", message: errorText(frame.error) }];
  const index = typeof frame.index === "number" ? frame.index : 0;
  if (frame.type === "content_block_start" && isPlainObject(frame.content_block)) {
    const block = frame.content_block;
    if (block.type !== "tool_use") return [];
    return [
      {
        kind: "tool",
        index,
        ...(typeof block.id === "string" ? { id: block.id } : {}),
        ...(typeof block.name === "string" ? { name: block.name } : {}),
        args: "",
      },
    ];
  }
  // Input tokens come in `message_start`, the output count (running total) in `message_delta`.
  if (frame.type === "message_start" && isPlainObject(frame.message)) {
    return anthropicUsage(frame.message.usage);
  }
  if (frame.type === "message_delta") return anthropicUsage(frame.usage);
  if (frame.type !== "content_block_delta" || !isPlainObject(frame.delta)) return [];
  const { delta } = frame;
  if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
    return [{ kind: "tool", index, args: delta.partial_json }];
  }
  if (delta.type === "text_delta" && typeof delta.text === "string") {
    return [{ kind: "text", text: delta.text }];
  }
  if (delta.type === "thinking_delta" && typeof delta.thinking === "string") {
    return [{ kind: "think", text: delta.thinking }];
  }
  return [];
}

function anthropicWholeDeltas(body: unknown): AnswerDelta[] {
  if (!isPlainObject(body) || !Array.isArray(body.content)) return [];
  const usage = anthropicUsage(body.usage);
  const blocks = body.content.flatMap((block: unknown, index: number): AnswerDelta[] => {
    if (!isPlainObject(block)) return [];
    if (block.type === "text" && typeof block.text === "string")
      return [{ kind: "text", text: block.text }];
    if (block.type === "thinking" && typeof block.thinking === "string") {
      return [{ kind: "think", text: block.thinking }];
    }
    if (block.type === "tool_use") {
      return [
        {
          kind: "tool",
          index,
          ...(typeof block.id === "string" ? { id: block.id } : {}),
          ...(typeof block.name === "string" ? { name: block.name } : {}),
          args: JSON.stringify(block.input ?? {}),
        },
      ];
    }
    return [];
  });
  return [...blocks, ...usage];
}

/** OpenAI's `usage`: `prompt_tokens` include the cached ones (`prompt_tokens_details`). */
function openaiUsage(usage: unknown): AnswerDelta[] {
  if (!isPlainObject(usage)) return [];
  const input = tokenCount(usage.prompt_tokens);
  const details = isPlainObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cacheRead = input === undefined ? undefined : tokenCount(details.cached_tokens);
  return usageDelta({ input, output: tokenCount(usage.completion_tokens), cacheRead });
}

/**
 * Anthropic's `usage`: `input_tokens` leaves out what the prompt cache read and wrote, so the
 * input is the three together (as its own docs add them up).
 */
function anthropicUsage(usage: unknown): AnswerDelta[] {
  if (!isPlainObject(usage)) return [];
  const uncached = tokenCount(usage.input_tokens);
  const cacheRead = uncached === undefined ? undefined : tokenCount(usage.cache_read_input_tokens);
  const cacheWrite =
    uncached === undefined ? undefined : tokenCount(usage.cache_creation_input_tokens);
  // Its split by lifetime (`cache_creation`), when it gives one: the 1-hour writes cost more.
  const creation = isPlainObject(usage.cache_creation) ? usage.cache_creation : {};
  const cacheWrite1h =
    cacheWrite === undefined ? undefined : tokenCount(creation.ephemeral_1h_input_tokens);
  // The sum of three believable counts is believed only as a count itself.
  const input =
    uncached === undefined
      ? undefined
      : tokenCount(uncached + (cacheRead ?? 0) + (cacheWrite ?? 0));
  const output = tokenCount(usage.output_tokens);
  return usageDelta({ input, output, cacheRead, cacheWrite, cacheWrite1h });
}

/** The counts that are there, as one delta; nothing without an input or output count. */
function usageDelta(counts: {
  input?: number | undefined;
  output?: number | undefined;
  cacheRead?: number | undefined;
  cacheWrite?: number | undefined;
  cacheWrite1h?: number | undefined;
}): AnswerDelta[] {
  if (counts.input === undefined && counts.output === undefined) return [];
  const delta: AnswerDelta & { kind: "usage" } = { kind: "usage" };
  if (counts.input !== undefined) delta.input = counts.input;
  if (counts.output !== undefined) delta.output = counts.output;
  if (counts.cacheRead !== undefined) delta.cacheRead = counts.cacheRead;
  if (counts.cacheWrite !== undefined) delta.cacheWrite = counts.cacheWrite;
  if (counts.cacheWrite1h !== undefined) delta.cacheWrite1h = counts.cacheWrite1h;
  return [delta];
}

function errorText(error: unknown): string {
  if (isPlainObject(error) && typeof error.message === "string")
    return `The upstream sent an error: ${error.message}`;
  return "The upstream sent an error frame.";
}
