import type {
  LanguageModelV3,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { TextStreamPart, ToolSet } from "ai";
import { pacedPartReader } from "../providers/paced-stream";
import type { CallSettings } from "./model-turn";
import type { SdkUsage } from "./usage";

/** The parts of `streamText`'s `fullStream` that `streamModelTurn` reads. */
export type DirectPart =
  | { type: "text-delta"; text: string }
  | {
      type: "finish";
      finishReason: string;
      totalUsage: SdkUsage;
    }
  | { type: "error"; error: unknown };

/** What `streamModelTurn` reads parts through: the SDK's stream reader, or `directParts`. */
export interface PartReader {
  read(): Promise<ReadableStreamReadResult<TextStreamPart<ToolSet> | DirectPart>>;
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
 * SDK builds from `system` and string contents), text deltas as `text-delta` parts with `text`,
 * `finish` with the unified reason and the step's token totals, `error` parts as they are, the
 * rest skipped. A single step, no retries, no tools: what the loop asks of the SDK anyway.
 */
export function directParts(model: LanguageModelV3, call: DirectCall): PartReader {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: call.system },
    ...call.conversation.map(({ role, content }) => ({
      role,
      content: [{ type: "text" as const, text: content }],
    })),
  ];
  const opened = Promise.resolve(
    model.doStream({ ...call.settings, prompt, abortSignal: call.abortSignal }),
  ).then(({ stream }): SourceReader => {
    const paced = pacedPartReader(stream);
    endsOnAbort = paced !== undefined;
    return paced ?? stream.getReader();
  });
  let endsOnAbort = false;
  // A failed start is reported by the first read; this keeps it from being unhandled meanwhile.
  opened.catch(() => {});
  let source: SourceReader | undefined;
  // One `then` per part (no async function per read): a demo run reads a part per record.
  const next = (
    result: ReadableStreamReadResult<LanguageModelV3StreamPart>,
  ): ReadableStreamReadResult<DirectPart> | Promise<ReadableStreamReadResult<DirectPart>> => {
    if (result.done) return DONE;
    const part = toDirectPart(result.value);
    if (part === null) return (source as SourceReader).read().then(next);
    return { done: false, value: part };
  };
  return {
    // A paced stream's reads end on abort (demo, replay); until the stream is open, not known.
    get endsOnAbort() {
      return endsOnAbort;
    },
    read() {
      if (source !== undefined) return source.read().then(next);
      return opened.then((opened) => {
        source = opened;
        return opened.read().then(next);
      });
    },
    async cancel() {
      const opening = source ?? (await opened.catch(() => undefined));
      await opening?.cancel();
    },
  };
}

type SourceReader = Pick<ReadableStreamDefaultReader<LanguageModelV3StreamPart>, "read" | "cancel">;

const DONE: ReadableStreamReadResult<DirectPart> = { done: true, value: undefined };

function toDirectPart(part: LanguageModelV3StreamPart): DirectPart | null {
  switch (part.type) {
    case "text-delta":
      return { type: "text-delta", text: part.delta };
    case "finish":
      return {
        type: "finish",
        finishReason: part.finishReason.unified,
        totalUsage: {
          inputTokens: part.usage.inputTokens.total,
          outputTokens: part.usage.outputTokens.total,
          inputTokenDetails: {
            cacheReadTokens: part.usage.inputTokens.cacheRead,
            cacheWriteTokens: part.usage.inputTokens.cacheWrite,
          },
        },
      };
    case "error":
      return { type: "error", error: part.error };
    default:
      return null;
  }
}
