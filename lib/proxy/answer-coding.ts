/**
 * Undoing the content-encoding of an upstream's answer (`upstream-call.ts`), as leniently as
 * `fetch` did, so what the client gets and what is recorded is the text: gzip, deflate (with or
 * without its zlib header) and br, each decoded as far as its bytes go (an answer ended without
 * its compressed stream's trailer, or an empty one, is not a failure). Any other coding goes on
 * as sent, header and all. More than `MAX_CODINGS` stacked codings fail the call, as in `fetch`:
 * each would take a decoder's memory before a byte is read.
 */
import type { IncomingMessage } from "node:http";
import type { Readable, Transform } from "node:stream";
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
} from "node:zlib";

/** How many codings one answer may stack (undici's limit). */
export const MAX_CODINGS = 5;

/** An answer that cannot be passed on (not a network failure: the upstream did answer). */
export class UnreadableAnswer extends Error {
  override readonly name = "UnreadableAnswer";
}

const ZLIB_LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

/**
 * The codings a `content-encoding` header names, in the order they are undone (the last
 * applied first), `identity` and empty names left out; names are case-insensitive.
 */
export function codingsNamed(header: string | null | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity")
    .reverse();
}

/**
 * Whether "deflate" bytes that start with `first` are zlib-wrapped, as the standard says (a
 * zlib header's low four bits are 8), rather than raw, as some servers send them.
 */
export function zlibWrapped(first: number | undefined): boolean {
  return first === undefined || (first & 0x0f) === 0x08;
}

/** The answer's codings in the order they are undone; throws `UnreadableAnswer` past the cap. */
export function codingsOf(answer: IncomingMessage): string[] {
  const codings = codingsNamed(answer.headers["content-encoding"]);
  if (codings.length > MAX_CODINGS)
    throw new UnreadableAnswer(
      `too many content codings (${codings.length}; at most ${MAX_CODINGS})`,
    );
  return codings;
}

/**
 * The body as the client will get it, and whether it was decoded (its `content-encoding` then
 * no longer holds). Failures and an early close of the answer reach the decoded body's reader.
 */
export async function decodedBody(
  answer: IncomingMessage,
  codings: readonly string[],
): Promise<{ decoded: boolean; body: Readable }> {
  if (codings.length === 0 || !codings.every(known)) return { decoded: false, body: answer };
  let body: Readable = answer;
  for (const coding of codings) {
    const decoder = coding === "deflate" ? await deflateDecoder(body) : decoderFor(coding);
    const from = body;
    // `pipe` passes on neither a failure nor an early close: the reader must see both.
    from.on("error", (error) => decoder.destroy(error));
    from.once("close", () => {
      if (!from.readableEnded) decoder.destroy(new Error("The upstream answer broke off."));
    });
    body = from.pipe(decoder);
  }
  return { decoded: true, body };
}

const known = (coding: string) =>
  coding === "gzip" || coding === "x-gzip" || coding === "deflate" || coding === "br";

function decoderFor(coding: string): Transform {
  return coding === "br" ? createBrotliDecompress(BROTLI_LENIENT) : createGunzip(ZLIB_LENIENT);
}

/** "deflate", zlib-wrapped or raw: the first byte tells (`zlibWrapped`), as `fetch` looked. */
async function deflateDecoder(body: Readable): Promise<Transform> {
  return zlibWrapped(await firstByte(body))
    ? createInflate(ZLIB_LENIENT)
    : createInflateRaw(ZLIB_LENIENT);
}

/** The first byte of `stream` once it has one (put back), or undefined when it ends first. */
function firstByte(stream: Readable): Promise<number | undefined> {
  return new Promise((resolve) => {
    const done = (value: number | undefined) => {
      stream.off("readable", look);
      stream.off("end", none);
      stream.off("close", none);
      resolve(value);
    };
    const look = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null || chunk.length === 0) return;
      stream.unshift(chunk);
      done(chunk[0]);
    };
    const none = () => done(undefined);
    stream.on("readable", look);
    stream.once("end", none);
    stream.once("close", none);
  });
}
