import { createParser, type Dialect, parseAll } from "../lib/protocol";
import { chunked, measure, measureInterleaved, type Timing, throughput } from "./timing";

/** Feeds every chunk, then `end()`; returns the number of events, so they are consumed. */
export function feedAll(dialect: Dialect, chunks: readonly string[]): number {
  const parser = createParser(dialect);
  let count = 0;
  for (const chunk of chunks) count += parser.feed(chunk).length;
  return count + parser.end().length;
}

/**
 * One pass of every dialect at every chunk size before anything is timed, so the shared
 * scanner code is compiled for all the shapes it will see and the first table is not the
 * one that pays for the JIT.
 */
export function warmUp(
  texts: ReadonlyMap<Dialect, string>,
  chunkSizes: readonly (number | null)[],
) {
  let events = 0;
  for (const [dialect, text] of texts) {
    for (const size of chunkSizes) {
      events += feedAll(dialect, chunked(text, size ?? Number.POSITIVE_INFINITY));
    }
  }
  return events;
}

export interface ThroughputRow {
  dialect: Dialect;
  /** Characters per chunk; `null` for the whole text in one `feed`. */
  chunk: number | null;
  mbPerSecond: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
  events: number;
}

export async function parserThroughput(
  dialect: Dialect,
  text: string,
  chunkSizes: readonly (number | null)[],
): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const size of chunkSizes) {
    const chunks = chunked(text, size ?? Number.POSITIVE_INFINITY);
    // 1-char runs are the slow ones: fewer, to keep the whole bench short.
    const options = size === 1 ? { warmup: 1, runs: 5 } : { warmup: 3, runs: 11 };
    const timing = await measure(() => feedAll(dialect, chunks), options);
    rows.push(row(dialect, size, text.length, timing));
  }
  return rows;
}

function row(
  dialect: Dialect,
  chunk: number | null,
  length: number,
  timing: Timing,
): ThroughputRow {
  return {
    dialect,
    chunk,
    mbPerSecond: throughput(length, timing.medianMs),
    medianMs: timing.medianMs,
    minMs: timing.minMs,
    maxMs: timing.maxMs,
    runs: timing.runs,
    events: timing.checksum,
  };
}

export interface LinearityRow {
  dialect: Dialect;
  chunk: number;
  smallMs: number;
  largeMs: number;
  /** largeMs / smallMs; about largeLength / smallLength (≈ 2) when the parser is linear. */
  ratio: number;
  lengthRatio: number;
}

/** The 1 MB and 2 MB runs alternate, so load from elsewhere does not skew the ratio. */
export async function linearity(
  dialect: Dialect,
  small: string,
  large: string,
  chunk: number,
): Promise<LinearityRow> {
  const smallChunks = chunked(small, chunk);
  const largeChunks = chunked(large, chunk);
  const [smallTiming, largeTiming] = await measureInterleaved(
    [() => feedAll(dialect, smallChunks), () => feedAll(dialect, largeChunks)],
    { warmup: 1, runs: 9 },
  );
  const smallMs = smallTiming?.medianMs ?? 0;
  const largeMs = largeTiming?.medianMs ?? 0;
  return {
    dialect,
    chunk,
    smallMs,
    largeMs,
    ratio: largeMs / smallMs,
    lengthRatio: large.length / small.length,
  };
}

/** The reference: `JSON.parse` of all execute-block bodies of the xml text, as one array. */
export async function jsonParseReference(xmlText: string) {
  const bodies: string[] = [];
  for (const event of parseAll("xml", xmlText)) {
    if (event.type !== "execute") continue;
    const block = xmlText.slice(event.span.start, event.span.end);
    bodies.push(block.slice("<execute>".length, -"</execute>".length));
  }
  const json = `[${bodies.join(",")}]`;
  const timing = await measure(() => (JSON.parse(json) as unknown[]).length, {
    warmup: 3,
    runs: 9,
  });
  return {
    blocks: bodies.length,
    length: json.length,
    mbPerSecond: throughput(json.length, timing.medianMs),
    medianMs: timing.medianMs,
    runs: timing.runs,
  };
}
