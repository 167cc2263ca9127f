/** Bytes sniffed for a NUL to decide a file is binary, as git and grep do. */
export const BINARY_SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The longest prefix of `bytes` within `maxBytes` that does not split a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length <= maxBytes) return bytes;
  let cut = Math.max(0, maxBytes);
  // Continuation bytes look like 10xxxxxx; back up to the start of the character.
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trimZero(bytes / 1024)} KiB`;
  return `${trimZero(bytes / (1024 * 1024))} MiB`;
}

function trimZero(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
