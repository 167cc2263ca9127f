import type { Conversation } from "./fake-script";
import { type FakeUsage, frame, stringsOf, textOf, type WireFormat } from "./wire-format";

/**
 * OpenAI's chat-completions streaming format (also what OpenAI-compatible servers speak):
 * `data: {choices:[{delta:{content}}]}` frames, a finish frame, a usage frame, `[DONE]`.
 */
export const openaiFormat: WireFormat = {
  read(body) {
    if (typeof body !== "object" || body === null) return "The body is not a JSON object.";
    const { model, messages, stop } = body as Record<string, unknown>;
    if (typeof model !== "string") return "`model` is missing.";
    if (!Array.isArray(messages)) return "`messages` is missing.";
    const conversation: Conversation = { system: "", messages: [] };
    for (const message of messages as { role?: unknown; content?: unknown }[]) {
      const text = textOf(message.content);
      if (message.role === "system" || message.role === "developer") {
        conversation.system += text;
      } else if (message.role === "user" || message.role === "assistant") {
        conversation.messages.push({ role: message.role, text });
      }
    }
    return { model, conversation, stop: stringsOf(stop) };
  },

  failure(behaviour, model, credentials) {
    const error = (status: number, message: string, type: string, code: string | null) => ({
      status,
      body: { error: { message, type, param: null, code } },
    });
    switch (behaviour) {
      case "fail-401":
        // Echoes what it was sent, as some servers do: redaction must catch it.
        return error(
          401,
          `Incorrect API key provided: ${credentials}. You can find your API key in your account.`,
          "invalid_request_error",
          "invalid_api_key",
        );
      case "fail-404":
        return error(
          404,
          `The model \`${model}\` does not exist or you do not have access to it.`,
          "invalid_request_error",
          "model_not_found",
        );
      case "fail-429":
        return {
          ...error(429, "Rate limit reached for requests.", "requests", "rate_limit_exceeded"),
          headers: { "retry-after": "7" },
        };
      case "fail-500":
        return error(
          500,
          "The server had an error while processing your request.",
          "server_error",
          null,
        );
      case "fail-context":
        return error(
          400,
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 250000 tokens.",
          "invalid_request_error",
          "context_length_exceeded",
        );
    }
  },

  head(model) {
    return [chunk(model, { role: "assistant", content: "" }, null)];
  },

  delta(text) {
    return chunk("fake", { content: text }, null);
  },

  reasoning(text) {
    return chunk("fake", { reasoning_content: text }, null);
  },

  afterReasoning() {
    return [];
  },

  whole(model, text, usage, reasoning) {
    return {
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text,
            ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
          },
          finish_reason: "stop",
        },
      ],
      usage: usageOf(usage),
    };
  },

  tail(_stoppedBy, usage) {
    return [
      chunk("fake", {}, "stop"),
      frame({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: 0,
        model: "fake",
        choices: [],
        usage: usageOf(usage),
      }),
      frame("[DONE]"),
    ];
  },
};

function chunk(model: string, delta: Record<string, string>, finish: string | null): string {
  return frame({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

/** OpenAI's `usage`: cached prompt tokens are a part of `prompt_tokens`, in its details. */
function usageOf(usage: FakeUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cached === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: usage.cached } }),
  };
}
