const encoder = new TextEncoder();

/** One SSE message whose `data:` line is one JSON record (docs/http-api.md). */
export function sseRecord(record: unknown): Uint8Array {
  return sseFrame(JSON.stringify(record));
}

/** The SSE message of a record already serialised (`JSON.stringify` of it). */
export function sseFrame(json: string): Uint8Array {
  // JSON.stringify never emits a raw line break, so one data line always suffices. Not
  // `Buffer.from` (0.2 µs less a frame): a run keeps its frames while it lives, and pooled
  // ones would each keep an 8 KB slab shared with other runs' frames alive as long.
  return encoder.encode(`data: ${json}\n\n`);
}

/** A closed SSE body of these records, in order (a finished run's, a run's viewers ended). */
export function sseStream(records: readonly unknown[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const record of records) controller.enqueue(sseRecord(record));
      controller.close();
    },
  });
}
