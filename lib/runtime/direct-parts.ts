import type {
  LanguageModelV3,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { pacedPartReader } from "../providers/paced-stream";
import type { CallSettings, TurnPart } from "./model-turn";
import { reported, type SdkUsage } from "./usage";

/**
 * What `streamModelTurn` reads parts through: the SDK's stream reader (its `fullStream`'s
 * parts), or `directParts` (a model's own stream parts).
 */
export interface PartReader<Part> {
  read(): Promise<ReadableStreamReadResult<Part>>;
  cancel(): Promise<void>;
  /**
   * True when a pending read settles by itself as the call's signal aborts (a paced stream
   * listens to it), so the reader need not race each read against the abort.
   */
  readonly endsOnAbort?: boolean;
}

export interface DirectCall {
  system: string;
  conversation: readonly { role: "user" | "assistant"; content: string }[];
  settings: CallSettings;
  abortSignal: AbortSignal;
}

/**
 * One turn of an in-process model read straight from its `doStream`, as `streamText` would hand
 * it on: the same prompt (a system message, then each message as one text part, the shape the
 * SDK builds from `system` and string contents), the model's own parts, which `turnPartOf`
 * turns into what the SDK's parts become. A single step, no retries, no tools: what the loop
 * asks of the SDK anyway. The parts are handed on as the model made them (no copy, no promise
 * step of its own per part): a demo run reads a part per record.
 */
export function directParts(
  model: LanguageModelV3,
  call: DirectCall,
): PartReader<LanguageModelV3StreamPart> {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: call.system },
    ...call.conversation.map(({ role, content }) => ({
      role,
      content: [{ type: "text" as const, text: content }],
    })),
  ];
  const opened = Promise.resolve(
    model.doStream({ ...call.settings, prompt, abortSignal: call.abortSignal }),
  ).then((result): SourceReader => {
    // Asked of the result first: a paced result makes its web stream only when asked for it.
    const paced = pacedPartReader(result) ?? pacedPartReader(result.stream);
    endsOnAbort = paced !== undefined;
    return paced ?? result.stream.getReader();
  });
  let endsOnAbort = false;
  // A failed start is reported by the first read; this keeps it from being unhandled meanwhile.
  opened.catch(() => {});
  let source: SourceReader | undefined;
  return {
    // A paced stream's reads end on abort (demo, replay); until the stream is open, not known.
    get endsOnAbort() {
      return endsOnAbort;
    },
    read() {
      if (source !== undefined) return source.read();
      return opened.then((opened) => {
        source = opened;
        return opened.read();
      });
    },
    async cancel() {
      const opening = source ?? (await opened.catch(() => undefined));
      await opening?.cancel();
    },
  };
}

type SourceReader = Pick<ReadableStreamDefaultReader<LanguageModelV3StreamPart>, "read" | "cancel">;

/**
 * A model's stream part as the turn part the SDK's `fullStream` part for it becomes: text
 * deltas (empty ones dropped), `finish` with the unified reason and the step's token totals,
 * `error` as it is; `undefined` for the parts the loop does not see.
 */
export function turnPartOf(part: LanguageModelV3StreamPart): TurnPart | undefined {
  switch (part.type) {
    case "text-delta":
      return part.delta.length > 0 ? { type: "text", text: part.delta } : undefined;
    case "finish": {
      const { inputTokens, outputTokens } = part.usage;
      return finishPart(part.finishReason.unified, {
        inputTokens: inputTokens.total,
        outputTokens: outputTokens.total,
        inputTokenDetails: {
          cacheReadTokens: inputTokens.cacheRead,
          cacheWriteTokens: inputTokens.cacheWrite,
        },
        raw: part.usage.raw,
      });
    }
    case "error":
      return { type: "error", error: part.error };
    default:
      return undefined;
  }
}

/** A `finish` turn part; token counts only where the provider reported them. */
export function finishPart(finishReason: string, usage: SdkUsage): TurnPart {
  return { type: "finish", finishReason, ...reported(usage) };
}
