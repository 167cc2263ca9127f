/**
 * What a captured request says, read from its JSON body (OpenAI chat completions or responses,
 * Anthropic messages): the conversation as a list of messages, the settings, the system
 * prompt, the tool names, and the text detection may look at. Never the headers.
 */
import { isPlainObject } from "../protocol/safe-json";
import type { AnswerApi } from "./answer-decoder";
import { type Continues, MAX_ANSWER_ID_CHARS } from "./conversations";
import { responsesMessages } from "./responses-request";

export interface RequestView {
  model: string;
  /** The conversation in order; Anthropic's top-level `system` comes first as a system message. */
  messages: unknown[];
  /** Everything else in the body (temperature, stop, tools, stream, …). */
  settings: Record<string, unknown>;
  system: string;
  tools: string[];
  streaming: boolean;
  /**
   * What the upstream keeps of this call's history: the answer it continues (a Responses
   * `previous_response_id`) or the upstream's conversation it adds to (`conversation`).
   */
  continues?: Continues;
  /**
   * Headers the request's tools send to other servers (a Responses `mcp` tool's `headers`):
   * their values are secrets, as the call's own headers' are.
   */
  toolHeaders?: [string, string][];
}

/** `undefined` when the body is not a chat request this proxy records. */
export function readRequest(body: unknown, api: AnswerApi): RequestView | undefined {
  if (api === "responses") return readResponses(body);
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return undefined;
  const { messages, model, system, ...settings } = body;
  const systemText = api === "anthropic" ? textOf(system) : systemOfOpenAI(messages);
  return {
    model: typeof model === "string" ? model : "",
    messages:
      api === "anthropic" && system !== undefined
        ? [{ role: "system", content: system }, ...messages]
        : [...messages],
    settings,
    system: systemText,
    tools: toolNames(body.tools),
    streaming: body.stream === true,
  };
}

/** How many messages `readRequest` would read (its `messages` or `input` items), unread. */
export function messageCount(body: unknown, api: AnswerApi): number {
  if (!isPlainObject(body)) return 0;
  const list = api === "responses" ? body.input : body.messages;
  return Array.isArray(list) ? list.length : 0;
}

/** A Responses request: `instructions` and `input` as messages (`responses-request.ts`). */
function readResponses(body: unknown): RequestView | undefined {
  if (!isPlainObject(body)) return undefined;
  const { input, instructions, model, ...settings } = body;
  const messages = responsesMessages(instructions, input);
  if (messages === undefined) return undefined;
  const answer = idOf(body.previous_response_id);
  const thread = idOf(isPlainObject(body.conversation) ? body.conversation.id : body.conversation);
  return {
    model: typeof model === "string" ? model : "",
    messages,
    settings,
    system: systemOfOpenAI(messages),
    tools: toolNames(body.tools),
    streaming: body.stream === true,
    ...(answer === undefined && thread === undefined
      ? {}
      : {
          continues: {
            ...(answer === undefined ? {} : { answer }),
            ...(thread === undefined ? {} : { thread }),
          },
        }),
    toolHeaders: toolHeaders(body.tools),
  };
}

/** An answer or conversation id a call names; one longer than any provider's is not used. */
function idOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_ANSWER_ID_CHARS
    ? value
    : undefined;
}

function toolHeaders(tools: unknown): [string, string][] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) =>
    isPlainObject(tool) && isPlainObject(tool.headers)
      ? Object.entries(tool.headers).flatMap(([name, value]): [string, string][] =>
          typeof value === "string" ? [[name, value]] : [],
        )
      : [],
  );
}

/** The request's words, first `max` characters: what detection reads when the answer shows no marker. */
export function requestText(view: RequestView, max = 65_536): string {
  let text = "";
  for (const message of view.messages) {
    if (text.length >= max) break;
    if (isPlainObject(message)) text += `${textOf(message.content)}\n`;
  }
  return text.slice(0, max);
}

/** The text of a message's content: a string, or the `text` of its parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (isPlainObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
}

function systemOfOpenAI(messages: readonly unknown[]): string {
  return messages
    .filter(
      (message): message is Record<string, unknown> =>
        isPlainObject(message) && (message.role === "system" || message.role === "developer"),
    )
    .map((message) => textOf(message.content))
    .join("\n");
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    if (!isPlainObject(tool)) return [];
    if (typeof tool.name === "string") return [tool.name];
    if (isPlainObject(tool.function) && typeof tool.function.name === "string") {
      return [tool.function.name];
    }
    return [];
  });
}
