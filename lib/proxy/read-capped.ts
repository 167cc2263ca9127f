/** The request body a proxied call forwards: read whole, capped, and bounded in time. */
import { BodyIdleError, readBounded } from "../server/body-idle";

/**
 * The body, or `"too large"` past `max` bytes (declared or counted: nothing past it is kept),
 * or the `BodyIdleError` of a client that sent nothing for `idleMs` mid-body.
 */
export async function readCapped(
  request: Request,
  max: number,
  idleMs: number,
): Promise<Uint8Array<ArrayBuffer> | "too large" | BodyIdleError> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const read = await readBounded(request, max, idleMs, (part) => {
    parts.push(part);
    size += part.byteLength;
    return true;
  });
  // `take` never stops the read: it ends whole, too large or idle.
  if (read === "too large" || read instanceof BodyIdleError) return read;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}
