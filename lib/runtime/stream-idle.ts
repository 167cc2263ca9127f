/** How long a model stream may send nothing before it is stopped (`WIRESCOPE_STREAM_IDLE_TIMEOUT_MS`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** A model stream that sent nothing for `idleMs`: the stream adapter aborted it. */
export class StreamIdleError extends Error {
  override readonly name = "StreamIdleError";

  constructor(readonly idleMs: number) {
    super(`The model stream sent nothing for ${idleMs} ms.`);
  }
}

/**
 * An abort signal that fires `idleMs` after the last `touch()` (not counting time between
 * `pause()` and the next `touch()`, when the consumer is busy). `idleMs` ≤ 0 or not finite
 * never fires. `stop()` clears the timer. Given a `controller`, the watch aborts that one (a
 * turn's own, which its caller's signal aborts too: no `AbortSignal.any`, which cost about 19 µs
 * a turn here, `bench/model-path.ts`); it does not fire once the controller is aborted otherwise.
 */
export function idleWatch(idleMs: number, controller = new AbortController()) {
  const enabled = Number.isFinite(idleMs) && idleMs > 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // When the watch fires (Infinity while paused). A touch only moves it: the stream touches the
  // watch for every part, and a new timer per part (clear, then set) cost more than all the
  // rest of the watch. The one timer, when it goes off early, is set again for what is left.
  let deadline = Number.POSITIVE_INFINITY;
  // Set when the watch aborted the controller; a flag spares a touch per part the signal's getter.
  let fired: StreamIdleError | undefined;
  const check = () => {
    timer = undefined;
    if (deadline === Number.POSITIVE_INFINITY || fired !== undefined) return;
    if (controller.signal.aborted) return;
    const left = deadline - performance.now();
    if (left <= 0) {
      fired = new StreamIdleError(idleMs);
      controller.abort(fired);
    } else timer = setTimeout(check, left);
  };
  const pause = () => {
    deadline = Number.POSITIVE_INFINITY;
  };
  const touch = () => {
    if (!enabled || fired !== undefined) return;
    deadline = performance.now() + idleMs;
    timer ??= setTimeout(check, idleMs);
  };
  const stop = () => {
    pause();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    touch,
    pause,
    stop,
    /** The idle error when the watch fired, else undefined. */
    get fired(): StreamIdleError | undefined {
      return fired;
    },
  };
}
