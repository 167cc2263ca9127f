import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { Dialect } from "../protocol";
import { scriptTurn } from "./demo-script";
import { createRandom, splitIntoChunks } from "./random";

export const DEMO_PROVIDER = "demo";
export const DEMO_MODEL_ID = "scripted";
export const DEMO_MODEL_LABEL = "Demo (scripted, offline)";

export interface DemoModelOptions {
  dialect: Dialect;
  /** Wait between text deltas in ms (default 15); 0 streams without waiting. */
  paceMs?: number;
  /** Largest text delta in characters (default 12); sizes vary from 1 up to this. */
  chunkChars?: number;
  /** Chunk sizes come from this; default a fresh PRNG seeded with `seed` for every call. */
  random?: () => number;
  /** Seed of the default PRNG (default 1). */
  seed?: number;
}

/**
 * The built-in offline model (provider `demo`): a scripted `LanguageModelV3` that answers in
 * the dialect's wire text. No network, no key; it follows the rules in CONTEXT.md.
 */
export function createDemoModel(options: DemoModelOptions): LanguageModelV3 {
  const { dialect, paceMs = 15, chunkChars = 12, seed = 1 } = options;
  return {
    specificationVersion: "v3",
    provider: DEMO_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call: LanguageModelV3CallOptions) {
      const text = scriptTurn(dialect, call.prompt);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(call.prompt, text),
        response: { modelId: DEMO_MODEL_ID },
        warnings: [],
      };
    },
    async doStream(call: LanguageModelV3CallOptions) {
      const text = scriptTurn(dialect, call.prompt);
      const random = options.random ?? createRandom(seed);
      const chunks = splitIntoChunks(text, chunkChars, random);
      const stream = streamParts(chunks, {
        paceMs,
        signal: call.abortSignal,
        usage: usage(call.prompt, text),
      });
      return { stream };
    },
  };
}

interface StreamSettings {
  paceMs: number;
  signal: AbortSignal | undefined;
  usage: LanguageModelV3Usage;
}

function streamParts(
  chunks: readonly string[],
  settings: StreamSettings,
): ReadableStream<LanguageModelV3StreamPart> {
  const { paceMs, signal } = settings;
  let index = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      controller.enqueue({ type: "response-metadata", id: "demo-0", modelId: DEMO_MODEL_ID });
      controller.enqueue({ type: "text-start", id: "0" });
    },
    // Pull-based: one delta per pull, so a slow reader never makes us buffer the whole text.
    async pull(controller) {
      if (signal?.aborted) {
        controller.error(abortError(signal));
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
      if (index > 0 && paceMs > 0) {
        const waited = await wait(paceMs, signal);
        if (!waited) {
          controller.error(abortError(signal));
          return;
        }
      }
      index += 1;
      controller.enqueue({ type: "text-delta", id: "0", delta: chunk });
    },
  });
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const error = new Error("The demo model's stream was aborted", { cause: reason });
  error.name = "AbortError";
  return error;
}

/** Token counts are estimates: about four characters a token. */
function usage(prompt: LanguageModelV3Prompt, output: string): LanguageModelV3Usage {
  const input = estimateTokens(JSON.stringify(prompt));
  const generated = estimateTokens(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: generated, text: generated, reasoning: undefined },
  };
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
