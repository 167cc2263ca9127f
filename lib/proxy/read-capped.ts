/** The request body a proxied call forwards: read whole, capped, and bounded in time. */
import { BodyIdleError, idleLimited } from "../server/body-idle";

/**
 * The body, or `"too large"` past `max` bytes (declared or counted: nothing past it is kept),
 * or the `BodyIdleError` of a client that sent nothing for `idleMs` mid-body.
 */
export async function readCapped(
  request: Request,
  max: number,
  idleMs: number,
): Promise<Uint8Array<ArrayBuffer> | "too large" | BodyIdleError> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) return "too large";
  if (request.body === null) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = idleLimited(request.body, idleMs).getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (error instanceof BodyIdleError) return error;
      throw error;
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return "too large";
    }
    parts.push(value);
  }
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}
