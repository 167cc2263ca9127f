/**
 * A compressed request body (`content-encoding: gzip`, `deflate`, `br`, or several stacked) as
 * the recording reads it. The body goes upstream as the agent sent it; only the recording's
 * copy is decoded, on zlib's worker threads, and never past `maxBytes` a coding (zlib's
 * `maxOutputLength`: a zip bomb stops there, its memory and time bounded by it).
 */
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, inflateRaw } from "node:zlib";
import { codingsNamed, MAX_CODINGS, zlibWrapped } from "./answer-coding";

export type DecodedRequest =
  | { ok: true; body: Uint8Array }
  /** Why it could not be read, in words for the recorded note. */
  | { ok: false; reason: string };

const decoders = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  br: promisify(brotliDecompress),
  // zlib-wrapped as the standard says, or raw as some clients send it: the first byte tells.
  deflate: (bytes: Uint8Array, options: { maxOutputLength: number }) =>
    (zlibWrapped(bytes[0]) ? promisify(inflate) : promisify(inflateRaw))(bytes, options),
} as const;

/** The codings named by a request's `content-encoding` header, in the order they are undone. */
export const requestCodings = codingsNamed;

/** The body with its codings undone, each decoded at most `maxBytes`. */
export async function decodeRequestBody(
  body: Uint8Array,
  codings: readonly string[],
  maxBytes: number,
): Promise<DecodedRequest> {
  const named = codings.join(", ");
  if (codings.length > MAX_CODINGS)
    return {
      ok: false,
      reason: `${codings.length} stacked content codings (at most ${MAX_CODINGS})`,
    };
  let bytes = body;
  for (const coding of codings) {
    if (!(coding in decoders))
      return {
        ok: false,
        reason: `content-encoding ${coding} is not one Wirescope reads (gzip, deflate, br)`,
      };
    try {
      bytes = await decoders[coding as keyof typeof decoders](bytes, { maxOutputLength: maxBytes });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ERR_BUFFER_TOO_LARGE")
        return {
          ok: false,
          reason: `decoded (${named}) it is larger than ${maxBytes} bytes (WIRESCOPE_PROXY_MAX_BODY_MB)`,
        };
      return {
        ok: false,
        reason: `it does not decode as ${named} (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return { ok: true, body: bytes };
}

/** The note a call whose body could not be read is recorded with. */
export function unreadableNote(reason: string): string {
  return `The request body could not be read for the recording: ${reason}. It was forwarded upstream as sent; its messages are not recorded.`;
}
