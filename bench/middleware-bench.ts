import { extractReasoningMiddleware, type LanguageModelMiddleware } from "ai";
import { parserStream } from "../lib/protocol/stream";
import { feedAll } from "./parser-bench";
import { chunked, measureInterleaved, throughput } from "./timing";

/**
 * Our xml parser against the AI SDK's `extractReasoningMiddleware({ tagName: "think" })`, both
 * fed the same chunks. The middleware is driven the way `wrapLanguageModel` drives it: its
 * `wrapStream` gets a `doStream` that returns a LanguageModelV3 stream of text parts, and the
 * stream it returns is drained. Note the middleware does less: it only splits out `<think>`;
 * our parser also parses and validates `<execute>` JSON, `<respond>`, `<end>` and spans.
 */

type WrapStream = NonNullable<LanguageModelMiddleware["wrapStream"]>;
type WrapOptions = Parameters<WrapStream>[0];
type StreamPart =
  Awaited<ReturnType<WrapOptions["doStream"]>>["stream"] extends ReadableStream<infer P>
    ? P
    : never;

/** What a provider streams: `text-start`, one `text-delta` per chunk, `text-end`. */
function providerStream(chunks: readonly string[]): ReadableStream<StreamPart> {
  let next = -1;
  return new ReadableStream<StreamPart>({
    pull(controller) {
      if (next < 0) controller.enqueue({ type: "text-start", id: "1" });
      else if (next < chunks.length) {
        controller.enqueue({ type: "text-delta", id: "1", delta: chunks[next] as string });
      } else {
        controller.enqueue({ type: "text-end", id: "1" });
        controller.close();
      }
      next++;
    },
  });
}

/** The same chunks as a plain text stream, for `parserStream`. */
function textStream(chunks: readonly string[]): ReadableStream<string> {
  let next = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++] as string);
      else controller.close();
    },
  });
}

async function drain(stream: ReadableStream<unknown>): Promise<number> {
  const reader = stream.getReader();
  let count = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return count;
    count++;
  }
}

const fakeModel: WrapOptions["model"] = {
  specificationVersion: "v3",
  provider: "bench",
  modelId: "replay",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error("The bench model only streams.")),
  doStream: () => Promise.reject(new Error("The bench model streams through doStream.")),
};

async function runMiddleware(chunks: readonly string[]): Promise<number> {
  const middleware = extractReasoningMiddleware({ tagName: "think" });
  const wrapStream = middleware.wrapStream as WrapStream;
  const result = await wrapStream({
    doGenerate: () => Promise.reject(new Error("The bench model only streams.")),
    doStream: async () => ({ stream: providerStream(chunks) }),
    params: { prompt: [] },
    model: fakeModel,
  });
  return drain(result.stream);
}

function runParserStream(chunks: readonly string[]): Promise<number> {
  return drain(textStream(chunks).pipeThrough(parserStream("xml")));
}

/** The cost of the stream plumbing alone: the same chunks through an identity transform. */
function runIdentityStream(chunks: readonly string[]): Promise<number> {
  return drain(textStream(chunks).pipeThrough(new TransformStream<string, string>()));
}

export interface MiddlewareRow {
  chunk: number;
  variant:
    | "ai-sdk extractReasoningMiddleware"
    | "xml parserStream"
    | "xml feed loop"
    | "identity TransformStream";
  mbPerSecond: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
  /** Stream parts or events read out. */
  outputs: number;
}

export async function middlewareComparison(
  xmlText: string,
  chunkSizes: readonly number[],
): Promise<MiddlewareRow[]> {
  const rows: MiddlewareRow[] = [];
  for (const chunk of chunkSizes) {
    const chunks = chunked(xmlText, chunk);
    const variants: [MiddlewareRow["variant"], () => number | Promise<number>][] = [
      ["ai-sdk extractReasoningMiddleware", () => runMiddleware(chunks)],
      ["xml parserStream", () => runParserStream(chunks)],
      ["xml feed loop", () => feedAll("xml", chunks)],
      ["identity TransformStream", () => runIdentityStream(chunks)],
    ];
    const timings = await measureInterleaved(
      variants.map(([, run]) => run),
      { warmup: 2, runs: 9 },
    );
    for (const [index, [variant]] of variants.entries()) {
      const timing = timings[index];
      if (timing === undefined) continue;
      rows.push({
        chunk,
        variant,
        mbPerSecond: throughput(xmlText.length, timing.medianMs),
        medianMs: timing.medianMs,
        minMs: timing.minMs,
        maxMs: timing.maxMs,
        runs: timing.runs,
        outputs: timing.checksum,
      });
    }
  }
  return rows;
}
