/** A rough token count for text whose provider reports no usage (the demo model, failures). */
export function estimateTokens(text: string): number {
  return estimateTokensOfLength(text.length);
}

/** `estimateTokens` of a text of `length` UTF-16 units (pieces counted as they pass). */
export function estimateTokensOfLength(length: number): number {
  return Math.ceil(length / 4);
}

/**
 * The estimate of a request's input tokens, the way the agent loop makes it: the messages'
 * contents joined by newlines. A content that is not a string (parts) counts as its JSON.
 */
export function estimateMessagesTokens(messages: readonly unknown[]): number {
  const texts = messages.map((message) => {
    const content =
      typeof message === "object" && message !== null && "content" in message
        ? message.content
        : message;
    return typeof content === "string" ? content : (JSON.stringify(content) ?? "");
  });
  return estimateTokens(texts.join("\n"));
}
