/**
 * When the runs' new frames go out to their viewers: together, from one callback, as soon as
 * the event loop is free — and, while it is busy, at most every few milliseconds.
 *
 * Every flush costs each connection a write down to the socket (a `writev` system call, the
 * response stream's and, in Next, its `pipeTo`'s promises), whatever it carries. A run streams a
 * record every few ms, so when the loop is idle each record goes out at once (nothing is
 * gained by waiting), but when it is busy the writes of 300 connections are much of the
 * thread. Then flushes are spaced by about as long as the loop is already late (`holdMs`,
 * at most `FLUSH_MAX_HOLD_MS`), so each write carries more records for a delay of the order
 * of the one every record already has.
 */

/** Below this lateness (ms) the loop counts as idle: the next flush is not held back. */
export const FLUSH_IDLE_LAG_MS = 2;
/** The longest a flush is held back after the previous one, however busy the loop (ms). */
export const FLUSH_MAX_HOLD_MS = 16;

export interface Flushable {
  flush(): void;
}

export interface FrameFlusherOptions {
  /** A clock in ms (default `performance.now`). */
  now?: () => number;
  /** Runs `flush` at the end of this turn of the event loop (default `setImmediate`). */
  soon?: (flush: () => void) => void;
  /** Runs `flush` in `ms` (default `setTimeout`). */
  later?: (flush: () => void, ms: number) => void;
  idleLagMs?: number;
  maxHoldMs?: number;
}

export interface FrameFlusher {
  /** `target` has new frames: it is flushed with every other one at the next flush. */
  request(target: Flushable): void;
  /** How long flushes are held back now (ms; 0 while the loop is idle). */
  readonly holdMs: number;
}

export function createFrameFlusher(options: FrameFlusherOptions = {}): FrameFlusher {
  const {
    now = () => performance.now(),
    soon = (flush) => setImmediate(flush),
    later = (flush, ms) => setTimeout(flush, ms),
    idleLagMs = FLUSH_IDLE_LAG_MS,
    maxHoldMs = FLUSH_MAX_HOLD_MS,
  } = options;
  let pending: Flushable[] = [];
  /** When the scheduled flush was meant to run: how late it actually runs measures the loop. */
  let dueAt = 0;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let holdMs = 0;

  const flushAll = (): void => {
    const at = now();
    const late = at - dueAt;
    holdMs = late <= idleLagMs ? 0 : Math.min(maxHoldMs, late);
    lastFlushAt = at;
    const targets = pending;
    pending = [];
    for (const target of targets) target.flush();
  };

  return {
    request(target) {
      pending.push(target);
      if (pending.length > 1) return;
      const at = now();
      const wait = lastFlushAt + holdMs - at;
      if (wait > 0) {
        dueAt = at + wait;
        later(flushAll, wait);
      } else {
        dueAt = at;
        soon(flushAll);
      }
    },
    get holdMs() {
      return holdMs;
    },
  };
}
