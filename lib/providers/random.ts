/**
 * A small seeded PRNG (mulberry32): the demo model's chunk sizes are reproducible, and `lib`
 * never calls `Math.random`. Returns numbers in [0, 1).
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts `text` into pieces of 1..`maxChars` characters, sizes drawn from `random`. */
export function splitIntoChunks(text: string, maxChars: number, random: () => number): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new Error(`chunkChars must be a positive integer, got ${maxChars}`);
  }
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    const size = 1 + Math.floor(random() * maxChars);
    let end = Math.min(text.length, start + size);
    // Never split a surrogate pair: a lone half would become U+FFFD on the wire.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
