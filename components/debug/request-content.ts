import { wrappedRows } from "./near-items";

/** A request message as the Request view shows it: its role and its text. */
export interface MessageView {
  role: string;
  text: string;
}

/**
 * Reads one provider message of a `request` record (docs/http-api.md). Content is a string, or a list
 * of parts: text parts are shown as their text, any other part (tool call, file, …) as JSON,
 * so nothing that was sent is hidden.
 */
export function messageView(message: unknown): MessageView {
  if (typeof message !== "object" || message === null)
    return { role: "unknown", text: JSON.stringify(message) ?? String(message) };
  const { role, content } = message as { role?: unknown; content?: unknown };
  const name = typeof role === "string" ? role : "unknown";
  if (typeof content === "string") return { role: name, text: content };
  if (Array.isArray(content)) return { role: name, text: content.map(partText).join("\n") };
  return { role: name, text: JSON.stringify(message, null, 2) };
}

function partText(part: unknown): string {
  if (typeof part === "object" && part !== null) {
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (type === "text" && typeof text === "string") return text;
  }
  return JSON.stringify(part, null, 2);
}

/** A rough token count, as the view labels it: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A message's header row, in px (its role, size and preview). */
export const MESSAGE_HEADER_PX = 29;

/**
 * About how tall a message's text is before it is drawn (20 px lines, 16 px of padding, ~64
 * columns): it places the messages not yet drawn, and the browser keeps the real height once
 * it has drawn one (`contain-intrinsic-size: auto`).
 */
export function estimatedTextHeight(text: string): number {
  return wrappedRows(text, 64) * 20 + 16;
}
