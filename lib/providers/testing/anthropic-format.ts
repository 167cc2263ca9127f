import type { Conversation } from "./fake-script";
import { frame, stringsOf, textOf, type WireFormat } from "./wire-format";

/**
 * Anthropic's messages streaming format: `message_start`, `content_block_start`, `ping`,
 * `content_block_delta` × n, `content_block_stop`, `message_delta`, `message_stop`.
 */
export const anthropicFormat: WireFormat = {
  read(body) {
    if (typeof body !== "object" || body === null) return "The body is not a JSON object.";
    const { model, messages, system, stop_sequences } = body as Record<string, unknown>;
    if (typeof model !== "string") return "model: Field required";
    if (!Array.isArray(messages)) return "messages: Field required";
    const conversation: Conversation = { system: textOf(system), messages: [] };
    for (const message of messages as { role?: unknown; content?: unknown }[]) {
      if (message.role === "user" || message.role === "assistant") {
        conversation.messages.push({ role: message.role, text: textOf(message.content) });
      }
    }
    return { model, conversation, stop: stringsOf(stop_sequences) };
  },

  failure(behaviour, model, credentials) {
    const error = (status: number, type: string, message: string) => ({
      status,
      body: { type: "error", error: { type, message } },
    });
    switch (behaviour) {
      case "fail-401":
        // Echoes what it was sent, as some servers do: redaction must catch it.
        return error(401, "authentication_error", `invalid x-api-key: ${credentials}`);
      case "fail-404":
        return error(404, "not_found_error", `model: ${model}`);
      case "fail-429":
        return {
          ...error(429, "rate_limit_error", "This request would exceed your rate limit."),
          headers: { "retry-after": "7" },
        };
      case "fail-500":
        return error(500, "api_error", "Internal server error");
      case "fail-context":
        return error(
          400,
          "invalid_request_error",
          "prompt is too long: 250000 tokens > 200000 maximum",
        );
    }
  },

  head(model, inputTokens, reasoning) {
    return [
      frame(
        {
          type: "message_start",
          message: {
            id: "msg_fake",
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: inputTokens, output_tokens: 1 },
          },
        },
        "message_start",
      ),
      frame(
        {
          type: "content_block_start",
          index: 0,
          content_block: reasoning
            ? { type: "thinking", thinking: "" }
            : { type: "text", text: "" },
        },
        "content_block_start",
      ),
      frame({ type: "ping" }, "ping"),
    ];
  },

  afterReasoning() {
    return [
      frame(
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "signature_delta", signature: "fake" },
        },
        "content_block_delta",
      ),
      frame({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      frame(
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        "content_block_start",
      ),
    ];
  },

  reasoning(text) {
    return frame(
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: text } },
      "content_block_delta",
    );
  },

  whole(model, text, usage, reasoning) {
    return {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      content: [
        ...(reasoning === undefined
          ? []
          : [{ type: "thinking", thinking: reasoning, signature: "" }]),
        { type: "text", text },
      ],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  },

  delta(text, reasoned) {
    return frame(
      { type: "content_block_delta", index: reasoned ? 1 : 0, delta: { type: "text_delta", text } },
      "content_block_delta",
    );
  },

  tail(stoppedBy, usage, reasoned) {
    return [
      frame({ type: "content_block_stop", index: reasoned ? 1 : 0 }, "content_block_stop"),
      frame(
        {
          type: "message_delta",
          delta: {
            stop_reason: stoppedBy === undefined ? "end_turn" : "stop_sequence",
            stop_sequence: stoppedBy ?? null,
          },
          usage: { output_tokens: usage.output },
        },
        "message_delta",
      ),
      frame({ type: "message_stop" }, "message_stop"),
    ];
  },
};
