import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { nativeCallsToText } from "./native-calls-as-text";
import { reasoningToText } from "./reasoning-as-think";

/**
 * `model` with what its server parsed out of the model's text put back in it, in the dialect's
 * own markers: reasoning in think markers (`reasoning-as-think.ts`), native tool calls in the
 * call syntax (`native-calls-as-text.ts`). Such a server takes the model's `<think>` block or
 * its call out of the answer; the runtime reads text only, so either was lost without a word.
 * As text they are parsed into events, shown in Raw, run, and sent back in later turns like
 * anything the model writes itself (so later turns send them back: more input tokens). The
 * capture proxy writes them with the same functions (`lib/protocol/written-back.ts`).
 */
export function withServerPartsAsText(
  model: LanguageModelV3,
  dialect: Dialect | DialectDefinition,
): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      async wrapStream({ doStream }) {
        const result = await doStream();
        const stream = result.stream
          .pipeThrough(reasoningToText(dialect))
          .pipeThrough(nativeCallsToText(dialect));
        return { ...result, stream };
      },
    },
  });
}
