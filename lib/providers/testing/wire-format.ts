import type { Behaviour, Conversation } from "./fake-script";

/** A request as the fake server needs it, whatever the wire format. */
export interface FakeRequest {
  model: string;
  conversation: Conversation;
  stop: string[];
}

/** An error answer: status, JSON body, extra headers. */
export interface FakeFailure {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type FailingBehaviour = Extract<Behaviour, `fail-${string}`>;

/** One provider's streaming wire format, as the fake server speaks it. */
export interface WireFormat {
  /** The request body → what to answer, or why the body is not one of this format's. */
  read(body: unknown): FakeRequest | string;
  /** The error answer for a failing behaviour; `credentials` is what the request sent. */
  failure(behaviour: FailingBehaviour, model: string, credentials: string): FakeFailure;
  /** SSE frames before the first text (or the first reasoning, when `reasoning`). */
  head(model: string, inputTokens: number, reasoning?: boolean): string[];
  /** One SSE frame carrying `text`; `reasoned`: reasoning came first. */
  delta(text: string, reasoned?: boolean): string;
  /** One SSE frame carrying reasoning text (OpenAI `reasoning_content`, Anthropic thinking). */
  reasoning(text: string): string;
  /** SSE frames between the reasoning and the text. */
  afterReasoning(): string[];
  /** The whole answer as one JSON body, for a request that did not ask to stream. */
  whole(model: string, text: string, usage: FakeUsage, reasoning?: string): unknown;
  /** SSE frames after the last text. */
  tail(stoppedBy: string | undefined, usage: FakeUsage, reasoned?: boolean): string[];
}

/** The usage a fake answer reports; `cached`: of `input`, what a prompt cache served. */
export interface FakeUsage {
  input: number;
  output: number;
  cached?: number;
}

/** An SSE frame: an optional `event:` line and one `data:` line. */
export function frame(data: unknown, event?: string): string {
  const line = `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
  return event === undefined ? line : `event: ${event}\n${line}`;
}

/** The text of a message's content: a string or an array of `{ type: "text", text }` parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("");
}

export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}
