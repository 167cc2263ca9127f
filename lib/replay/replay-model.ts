import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import {
  estimatedUsage,
  failedStream,
  inProcessModel,
  pacedTextStream,
} from "../providers/paced-stream";
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
  return inProcessModel({
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
        usage: estimatedUsage(prompt, text),
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
      const stream = pacedTextStream(turn.chunks, {
        paceMs,
        signal: call.abortSignal,
        usage: estimatedUsage(JSON.stringify(call.prompt), text),
        name: "replay model",
      });
      return { stream };
    },
  });
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
