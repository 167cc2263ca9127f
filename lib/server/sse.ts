/** One SSE message whose `data:` line is one JSON record (spec §9). */
export function sseRecord(record: unknown): Uint8Array {
  return sseFrame(JSON.stringify(record));
}

/** The SSE message of a record already serialised (`JSON.stringify` of it). */
export function sseFrame(json: string): Uint8Array {
  // JSON.stringify never emits a raw line break, so one data line always suffices. A Buffer:
  // small ones share Node's pool instead of each holding an ArrayBuffer of its own.
  return Buffer.from(`data: ${json}\n\n`);
}
