import { prettyJson } from "./pretty-json";

/** The largest export a server writes (a transcript's Markdown or TaskSteps), in UTF-8 bytes. */
export const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

export interface ExportStreamOptions {
  maxBytes?: number;
  /** What ends an export cut at the ceiling; absent, the stream fails instead (for JSON). */
  truncated?: (maxBytes: number) => string;
}

/**
 * Pulls `parts` one at a time as the client reads, so an export is never whole in memory,
 * and stops at `maxBytes`: with the `truncated` note (Markdown stays readable), or with a
 * stream error (a cut JSON file would parse as something it is not). Parts read from a
 * store come as an async iterable; a failed read fails the stream.
 */
export function exportStream(
  parts: Iterable<string> | AsyncIterable<string>,
  options: ExportStreamOptions = {},
): ReadableStream<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_EXPORT_BYTES;
  const encoder = new TextEncoder();
  const iterator =
    Symbol.asyncIterator in parts ? parts[Symbol.asyncIterator]() : parts[Symbol.iterator]();
  let written = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) {
          controller.close();
          return;
        }
        const bytes = encoder.encode(next.value);
        written += bytes.byteLength;
        if (written <= maxBytes) {
          controller.enqueue(bytes);
          return;
        }
        await iterator.return?.();
        if (options.truncated === undefined) {
          controller.error(new Error(`The export is larger than ${maxBytes} bytes.`));
          return;
        }
        controller.enqueue(encoder.encode(options.truncated(maxBytes)));
        controller.close();
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * A JSON array one item at a time, laid out like `JSON.stringify(items, null, 2)` while the
 * items are small and shallow (`prettyJson` keeps the rest compact).
 */
export function* jsonArrayParts(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield arrayItem(item, first);
    first = false;
  }
  yield first ? "[]\n" : "\n]\n";
}

/** `jsonArrayParts` of items that arrive a batch at a time (read from a store). */
export async function* jsonArrayPartsOf(batches: AsyncIterable<unknown[]>): AsyncGenerator<string> {
  let first = true;
  for await (const items of batches)
    for (const item of items) {
      yield arrayItem(item, first);
      first = false;
    }
  yield first ? "[]\n" : "\n]\n";
}

function arrayItem(item: unknown, first: boolean): string {
  // JSON escapes newlines inside strings: every "\n" here is a line break of the layout.
  return `${first ? "[\n" : ",\n"}  ${prettyJson(item).replaceAll("\n", "\n  ")}`;
}
