import { formatBytes, type JsonlError } from "./jsonl";

/** One piece of a body's text, or why the body was refused (the last piece then). */
export type TextPiece =
  | { ok: true; text: string; done: boolean }
  | { ok: false; error: JsonlError };

/**
 * A body's text as it arrives, decoded strictly as UTF-8 (a character split across chunks is
 * joined) and counted against `maxBytes` before anything else reads it: the shared front of the
 * transcript-file and raw-text imports. The last piece has `done` (its text may be empty).
 */
export async function* decodedText(
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
  maxBytes: number,
  notUtf8: string,
): AsyncGenerator<TextPiece> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  for (;;) {
    const chunk = reader === undefined ? { done: true as const } : await reader.read();
    let text: string;
    try {
      text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
    } catch {
      yield { ok: false, error: { reason: "invalid", message: notUtf8 } };
      return;
    }
    if (!chunk.done) {
      bytes += chunk.value.byteLength;
      if (bytes > maxBytes) {
        const message = `body: the file is larger than the limit of ${formatBytes(maxBytes)}.`;
        yield { ok: false, error: { reason: "too_large", message } };
        return;
      }
    }
    yield { ok: true, text, done: chunk.done };
    if (chunk.done) return;
  }
}
