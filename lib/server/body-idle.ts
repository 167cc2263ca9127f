import { readNumber, SETTINGS } from "./settings";

/** How long a request body may send nothing before it is refused, by default (30 s). */
export const DEFAULT_BODY_IDLE_MS = SETTINGS.bodyIdleTimeoutS.fallback * 1000;

/** `WIRESCOPE_BODY_IDLE_TIMEOUT_S` in ms: a positive number of seconds, else the default. */
export function readBodyIdleMs(env: Record<string, string | undefined> = process.env): number {
  return readNumber(env, SETTINGS.bodyIdleTimeoutS) * 1000;
}

/** A request body that sent nothing for too long: routes answer `408` with its message. */
export class BodyIdleError extends Error {
  constructor(readonly idleMs: number) {
    super(
      `body: nothing arrived for ${idleMs / 1000} s (WIRESCOPE_BODY_IDLE_TIMEOUT_S); send the body without pausing.`,
    );
    this.name = "BodyIdleError";
  }
}

/**
 * `body` as it arrives, failing with `BodyIdleError` once a read has waited `idleMs` for the
 * client: a client trickling a body (or stopping halfway) would otherwise hold the request,
 * and what was read of it, until Node's request timeout (5 minutes). Only the client's silence
 * counts — the wait starts when the consumer asks for more — so a slow consumer (an import
 * writing to the store) never trips it. The source is cancelled on timeout; `onIdle` is for a
 * consumer that wraps the error in its own (a form parser).
 */
export function idleLimited(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  onIdle: () => void = () => {},
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new BodyIdleError(idleMs)), idleMs);
        });
        try {
          const next = await Promise.race([reader.read(), idle]);
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          if (error instanceof BodyIdleError) {
            onIdle();
            void reader.cancel(error).catch(() => {});
          }
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** How a bounded read of a body ended (`readBounded`). */
export type BoundedRead = "whole" | "too large" | "stopped" | BodyIdleError;

/**
 * Hands `request`'s body to `take` chunk by chunk, bounded: `"too large"` at once when its
 * declared length passes `maxBytes`, or once what arrived does (nothing past it is handed on);
 * `"stopped"` when `take` answers false; the `BodyIdleError` of a client silent for `idleMs`
 * mid-body. The source is cancelled whenever the read ends early. Other read failures throw.
 */
export async function readBounded(
  request: Request,
  maxBytes: number,
  idleMs: number,
  take: (chunk: Uint8Array) => boolean,
): Promise<BoundedRead> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) return "too large";
  if (request.body === null) return "whole";
  const reader = idleLimited(request.body, idleMs).getReader();
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (error instanceof BodyIdleError) return error;
      throw error;
    }
    if (next.done) return "whole";
    size += next.value.byteLength;
    const ended = size > maxBytes ? "too large" : take(next.value) ? null : "stopped";
    if (ended !== null) {
      await reader.cancel().catch(() => {});
      return ended;
    }
  }
}
