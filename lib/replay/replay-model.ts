import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { findLlmAnswer, findTurn, type PromptKey, type ReplaySource } from "./replay-source";

export const REPLAY_PROVIDER = "replay";

export interface ReplayModelOptions {
  /** Wait between chunks in ms (default 0: as fast as the reader takes them). */
  paceMs?: number;
}

/**
 * A `LanguageModelV3` that answers with a transcript's recorded model output: each streamed
 * call plays the raw chunks of the recorded turn made at the same point of the conversation
 * (same task, same number of earlier model turns), in order, each turn at most once per model.
 * Tools still run live, so a regression run shows what today's parser and tools make of
 * yesterday's model output. A point the recording never reached is an error part.
 */
export function createReplayModel(
  source: ReplaySource,
  options: ReplayModelOptions = {},
): LanguageModelV3 {
  const { paceMs = 0 } = options;
  const used = new Set<number>();
  return {
    specificationVersion: "v3",
    provider: REPLAY_PROVIDER,
    modelId: source.transcriptId,
    supportedUrls: {},
    async doGenerate(call: LanguageModelV3CallOptions) {
      const prompt = textsOf(call.prompt).join("\n");
      const text = findLlmAnswer(source, prompt);
      if (text === undefined)
        throw new Error(
          `Transcript "${source.transcriptId}" recorded no model call for this prompt.`,
        );
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(prompt, text),
        warnings: [],
      };
    },
    async doStream(call: LanguageModelV3CallOptions) {
      const key = promptKey(call.prompt);
      const turn = findTurn(source, key, used);
      if (turn === undefined) {
        const error = new Error(
          `Transcript "${source.transcriptId}" has no recorded model turn for this point (model turn ${key.assistants + 1} of the task); the recording ends earlier or went another way.`,
        );
        return { stream: failedStream(error) };
      }
      used.add(turn.turn);
      const text = turn.chunks.join("");
      const stream = chunkStream(turn.chunks, {
        paceMs,
        signal: call.abortSignal,
        usage: usage(JSON.stringify(call.prompt), text),
      });
      return { stream };
    },
  };
}

function promptKey(prompt: LanguageModelV3Prompt): PromptKey {
  let firstUser: string | undefined;
  let assistants = 0;
  for (const message of prompt) {
    if (message.role === "assistant") assistants++;
    if (message.role === "user" && firstUser === undefined) firstUser = textsOf([message]).join("");
  }
  return { firstUser, assistants };
}

function textsOf(prompt: LanguageModelV3Prompt): string[] {
  return prompt.flatMap((message) => {
    if (message.role === "system") return [message.content];
    return message.content.flatMap((part) => (part.type === "text" ? [part.text] : []));
  });
}

interface StreamSettings {
  paceMs: number;
  signal: AbortSignal | undefined;
  usage: LanguageModelV3Usage;
}

/** Pull-based: one chunk per pull, so the stream goes at the reader's pace. */
function chunkStream(
  chunks: readonly string[],
  settings: StreamSettings,
): ReadableStream<LanguageModelV3StreamPart> {
  let index = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      controller.enqueue({ type: "text-start", id: "0" });
    },
    async pull(controller) {
      if (settings.signal?.aborted) {
        controller.error(abortError(settings.signal));
        return;
      }
      const chunk = chunks[index];
      if (chunk === undefined) {
        controller.enqueue({ type: "text-end", id: "0" });
        controller.enqueue({
          type: "finish",
          usage: settings.usage,
          finishReason: { unified: "stop", raw: "stop" },
        });
        controller.close();
        return;
      }
      if (index > 0 && settings.paceMs > 0) await wait(settings.paceMs, settings.signal);
      if (settings.signal?.aborted) {
        controller.error(abortError(settings.signal));
        return;
      }
      index += 1;
      controller.enqueue({ type: "text-delta", id: "0", delta: chunk });
    },
  });
}

function failedStream(error: Error): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      controller.enqueue({ type: "error", error });
      controller.close();
    },
  });
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const error = new Error("The replay model's stream was aborted", { cause: reason });
  error.name = "AbortError";
  return error;
}

/** Estimates, like the demo model's: about four characters a token. */
function usage(input: string, output: string): LanguageModelV3Usage {
  const inputTokens = Math.ceil(input.length / 4);
  const outputTokens = Math.ceil(output.length / 4);
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}
