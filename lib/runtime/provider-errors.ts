import { APICallError } from "@ai-sdk/provider";
import type { StreamTurn } from "./model-turn";
import { redactSecrets } from "./redact";
import { StreamIdleError } from "./stream-idle";
import { transformParts } from "./turn-transform";

/** What the runtime knows about the provider a failure came from, to say what to do. */
export interface ProviderErrorContext {
  /** "OpenAI", "Ollama (local)", … */
  label: string;
  model: string;
  /** The server variable that holds the key, when the provider takes one. */
  keyVariable?: string;
  /** Where requests go, without credentials (shown for unreachable hosts). */
  baseURL?: string;
  /** The server variable that sets the base URL, when there is one. */
  baseURLVariable?: string;
  /** Exact values never to show (the configured keys). */
  secrets?: readonly string[];
}

/** A provider failure already put into words; `describeProviderError` passes it through. */
export class ProviderFailure extends Error {
  override readonly name = "ProviderFailure";
}

/** The longest piece of a provider's own message that is quoted. */
const QUOTE_LIMIT = 300;
const CONTEXT_LENGTH =
  /context[ _-]?(length|window|size)|maximum context|prompt is too long|too many tokens|exceeds the (maximum|available) (number of tokens|context)|input token count/i;

/**
 * A provider failure in words a user can act on: what happened, then what to do. Maps the
 * AI SDK's `APICallError` by status code (and context-length messages), connection and
 * mid-stream failures, and the stream adapter's idle timeout. Credentials are redacted: a
 * provider's error body may echo the request's headers.
 */
export function describeProviderError(error: unknown, context?: ProviderErrorContext): string {
  if (error instanceof ProviderFailure) return error.message;
  const label = context?.label ?? "The model provider";
  const text = `${whatHappened(error, label, context)} ${whatToDo(error, context)}`.trim();
  return redactSecrets(text, context?.secrets);
}

/**
 * `streamTurn` with its error parts put into words for this provider, so the loop reports
 * them with what to check (the key variable, the base URL, the model id).
 */
export function describeFailures(
  streamTurn: StreamTurn,
  context: ProviderErrorContext,
): StreamTurn {
  return (input) => {
    let received = false;
    return transformParts(streamTurn(input), (part, out) => {
      if (part.type === "text") received = true;
      if (part.type !== "error") {
        out.push(part);
        return;
      }
      const message = describeProviderError(part.error, context);
      const kept = received ? " What arrived before the failure is kept." : "";
      out.push({
        type: "error",
        error: new ProviderFailure(`${message}${kept}`, { cause: part.error }),
      });
    });
  };
}

function whatHappened(error: unknown, label: string, context?: ProviderErrorContext): string {
  const model = context?.model === undefined ? "the model" : `"${context.model}"`;
  if (error instanceof StreamIdleError) {
    return `${label} sent nothing for ${formatSeconds(error.idleMs)}, so the stream was stopped.`;
  }
  if (APICallError.isInstance(error) && isBrokenConnection(error.cause)) {
    // A response that started well and then broke: the SDK wraps the socket error.
    return `The connection to ${label} broke in the middle of the answer (${quote(messageOf(error.cause))}).`;
  }
  if (APICallError.isInstance(error) && (error.statusCode ?? 400) < 400) {
    return `${label} sent a response that could not be read (${quote(messageOf(error))}).`;
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const quoted = quote(error.message);
    if (status === undefined) {
      const where = context?.baseURL === undefined ? "" : ` at ${context.baseURL}`;
      return `Could not reach ${label}${where} (${quoted}).`;
    }
    const http = `HTTP ${status}: ${quoted}`;
    if (isContextLength(error)) {
      return `The conversation is longer than ${model}'s context window (${http}).`;
    }
    if (status === 401) return `${label} rejected the API key (${http}).`;
    if (status === 403) return `${label} refused access to ${model} (${http}).`;
    if (status === 404) return `${label} does not know the model ${model} (${http}).`;
    if (status === 429) return `${label} is rate limiting requests or is out of quota (${http}).`;
    if (status === 408 || status === 504 || status === 524) return `${label} timed out (${http}).`;
    if (status === 503 || status === 529) return `${label} is overloaded (${http}).`;
    if (status >= 500) return `${label} had a server error (${http}).`;
    return `${label} refused the request (${http}).`;
  }
  if (isBrokenConnection(error)) {
    return `The connection to ${label} broke in the middle of the answer (${quote(messageOf(error))}).`;
  }
  if (isFormatError(error)) {
    return `${label} sent a response that is not in the expected format (${quote(messageOf(error))}).`;
  }
  if (!(error instanceof Error) && typeof error === "object" && error !== null) {
    // A mid-stream error chunk: `{ type, message }` (Anthropic) or `{ message, code }` (OpenAI).
    if (CONTEXT_LENGTH.test(messageOf(error))) {
      return `The conversation is longer than ${model}'s context window (${quote(messageOf(error))}).`;
    }
    return `${label} reported an error in the middle of the answer (${quote(messageOf(error))}).`;
  }
  return `${label} failed: ${quote(messageOf(error))}.`;
}

function whatToDo(error: unknown, context?: ProviderErrorContext): string {
  const key = context?.keyVariable;
  if (error instanceof StreamIdleError) {
    return "The server may be overloaded or stuck: try again, or raise WIRESCOPE_STREAM_IDLE_TIMEOUT_MS for a slow model.";
  }
  if (APICallError.isInstance(error) && isBrokenConnection(error.cause)) {
    return "Try again; if it keeps happening, check the provider's status or the server's logs.";
  }
  if (APICallError.isInstance(error) && (error.statusCode ?? 400) < 400) {
    return "Check that the base URL points at a server that speaks this provider's API.";
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return context?.baseURLVariable === undefined
        ? "Check the server's network connection."
        : `Check that the server is running and that ${context.baseURLVariable} points at it.`;
    }
    if (isContextLength(error)) {
      return "Start a new conversation, shorten the system prompt or the tool results, or pick a model with a larger context window.";
    }
    if (status === 401) {
      return key === undefined
        ? "Check the server's API key setting."
        : `Check ${key} on the server (see .env.example) and restart it.`;
    }
    if (status === 403) {
      return `The key may not be allowed to use this model: check ${key ?? "the key"} and the account's permissions.`;
    }
    if (status === 404) {
      return "Pick a model the provider serves (GET /api/models lists them) or check the base URL.";
    }
    if (status === 429) {
      const after = error.responseHeaders?.["retry-after"];
      const wait = after === undefined ? "a moment" : `${after} s`;
      return `Wait ${wait} and try again, or check the account's quota and billing.`;
    }
    if (status >= 500 || status === 408) {
      return "The problem is on the provider's side: try again in a moment.";
    }
    return "Check the model id and the call settings (temperature, stop sequences, token limits).";
  }
  if (isBrokenConnection(error) || (typeof error === "object" && !(error instanceof Error))) {
    return "Try again; if it keeps happening, check the provider's status or the server's logs.";
  }
  if (isFormatError(error)) {
    return "Check that the base URL points at a server that speaks this provider's API.";
  }
  return "";
}

function isContextLength(error: APICallError): boolean {
  if (error.statusCode !== 400 && error.statusCode !== 413 && error.statusCode !== 422)
    return false;
  return CONTEXT_LENGTH.test(error.message) || CONTEXT_LENGTH.test(error.responseBody ?? "");
}

/** undici ends a body whose socket closed early with `TypeError: terminated`. */
function isBrokenConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = error.cause as { code?: unknown } | undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  return (
    error.message === "terminated" ||
    code === "UND_ERR_SOCKET" ||
    code === "ECONNRESET" ||
    /other side closed|socket hang up/i.test(error.message)
  );
}

function isFormatError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AI_JSONParseError" ||
      error.name === "AI_TypeValidationError" ||
      error.name === "AI_InvalidResponseDataError" ||
      error.name === "AI_EmptyResponseBodyError")
  );
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause.message : "";
    return cause === "" || error.message.includes(cause)
      ? error.message
      : `${error.message}: ${cause}`;
  }
  if (typeof error === "object" && error !== null) {
    const record = error as { type?: unknown; message?: unknown; error?: unknown };
    if (typeof record.error === "object" && record.error !== null) return messageOf(record.error);
    const type = typeof record.type === "string" ? `${record.type}: ` : "";
    if (typeof record.message === "string") return `${type}${record.message}`;
  }
  return String(error);
}

function quote(message: string): string {
  const line = message.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT - 1)}…` : line;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
