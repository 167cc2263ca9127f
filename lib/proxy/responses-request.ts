/**
 * A Responses API request (`POST /responses`) read as the chat-completions messages the rest of
 * the capture works with (`request-view.ts`): `instructions` as the system message, then
 * `input` (a string, or items) one message per item, so a later call that sends the same
 * items again extends the same messages. Pure.
 */
import { isPlainObject } from "../protocol/safe-json";

/** `input` as messages; `undefined` when it is neither a string nor a list. */
export function responsesMessages(
  instructions: unknown,
  input: unknown,
): Record<string, unknown>[] | undefined {
  const system =
    typeof instructions === "string" && instructions !== ""
      ? [{ role: "system", content: instructions }]
      : [];
  if (input === undefined) return system;
  if (typeof input === "string") return [...system, { role: "user", content: input }];
  if (!Array.isArray(input)) return undefined;
  return [...system, ...input.map(itemMessage)];
}

/**
 * One input item as a chat-completions message: a message keeps its role and content (its
 * `input_text` / `output_text` parts as `text` parts); a `function_call` is an assistant
 * message with one `tool_calls` entry (its `call_id` the entry's id), a `function_call_output`
 * a `tool` message answering it; a `reasoning` item an assistant message with its readable
 * text as `reasoning` (its `encrypted_content` is opaque and left out). Any other item
 * (`item_reference`, built-in tools' calls) is kept as sent.
 */
function itemMessage(item: unknown): Record<string, unknown> {
  if (!isPlainObject(item)) return { role: "user", content: item };
  if (item.type === "function_call") {
    return {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: item.call_id,
          type: "function",
          function: { name: item.name, arguments: item.arguments },
        },
      ],
    };
  }
  if (item.type === "function_call_output")
    return { role: "tool", tool_call_id: item.call_id, content: contentOf(item.output) };
  if (item.type === "reasoning") return { role: "assistant", reasoning: reasoningText(item) };
  // An "easy" message has no `type`; a full one says `message`.
  if ((item.type === undefined || item.type === "message") && typeof item.role === "string")
    return { role: item.role, content: contentOf(item.content) };
  return item;
}

/** A string as it is; a list of parts with the text ones as `{ type: "text", text }`. */
function contentOf(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part: unknown) =>
    isPlainObject(part) &&
    (part.type === "input_text" || part.type === "output_text") &&
    typeof part.text === "string"
      ? { type: "text", text: part.text }
      : part,
  );
}

/** The reasoning an item shows: its full text when it has one (open models), else its summary. */
function reasoningText(item: Record<string, unknown>): string {
  const texts = (parts: unknown) =>
    Array.isArray(parts)
      ? parts.flatMap((part: unknown) =>
          isPlainObject(part) && typeof part.text === "string" ? [part.text] : [],
        )
      : [];
  const content = texts(item.content);
  return (content.length > 0 ? content : texts(item.summary)).join("\n\n");
}

/**
 * Whether a message is a reasoning item's (`itemMessage`: a role and its reasoning, nothing
 * else): agents may send earlier answers' reasoning again or leave it out (as with Anthropic's
 * thinking blocks), so joining does not count it. A chat-completions assistant message with
 * `reasoning` and `tool_calls` but no `content` (which the API allows) is not one: its calls count.
 */
export function isReasoningItem(message: unknown): boolean {
  if (!isPlainObject(message) || message.role !== "assistant") return false;
  return typeof message.reasoning === "string" && Object.keys(message).length === 2;
}
