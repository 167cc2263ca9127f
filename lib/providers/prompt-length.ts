import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";

/**
 * `JSON.stringify(prompt).length`, what a scripted model estimates its input tokens from,
 * without writing out the system message each turn: its length is remembered by its text (the
 * same few prompts of about 5 KB, `lib/runtime/system-prompt.ts`, in nearly every run).
 */
export function promptJsonLength(prompt: LanguageModelV3Prompt): number {
  // "[" and "]", and a comma between two messages.
  let length = prompt.length === 0 ? 2 : prompt.length + 1;
  for (const message of prompt) length += messageJsonLength(message);
  return length;
}

const MAX_REMEMBERED = 32;
const systemLengths = new Map<string, number>();

function messageJsonLength(message: LanguageModelV3Message): number {
  // Only `{ role, content }` is the shape whose length is remembered; anything else is written.
  if (message.role !== "system" || Object.keys(message).length !== 2) {
    return JSON.stringify(message).length;
  }
  const known = systemLengths.get(message.content);
  if (known !== undefined) return known;
  const length = JSON.stringify(message).length;
  // Bounded: a conversation may bring a system prompt of its own.
  if (systemLengths.size >= MAX_REMEMBERED) systemLengths.clear();
  systemLengths.set(message.content, length);
  return length;
}
