/**
 * Lets a long import share the server: an upload read in big pieces (a fast client sends
 * megabytes at once) is validated a line at a time with nothing but microtasks in between, so
 * without a pause the event loop served nothing else for as long as a piece took (1.2 s for a
 * 4 MiB piece of small lines: every proxied agent's first byte and every page waited for it).
 */

/** Gives the event loop a turn (pending I/O first) once `sliceMs` of work has gone by. */
export type LoopTurns = () => Promise<void>;

export const IMPORT_SLICE_MS = 10;

export function loopTurns(
  sliceMs = IMPORT_SLICE_MS,
  now: () => number = () => performance.now(),
  turn: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
): LoopTurns {
  let since = now();
  return async () => {
    if (now() - since < sliceMs) return;
    await turn();
    since = now();
  };
}
