/**
 * Small writes made in one turn of the event loop, committed together (`sqlite-store.ts`).
 */
import type Database from "better-sqlite3";
import { storeClosed } from "./errors";

interface Call {
  write: () => unknown;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Queues a write and runs it, with every other one queued in the same turn of the event loop,
 * in one write transaction at the end of the turn (`setImmediate`; `schedule` may be
 * `queueMicrotask`: then the writes queued before the current microtasks have run, such as the
 * run claims of every start one grouped commit let go on, share one). When hundreds of runs start
 * at once, each one's transcript row had been a commit of its own (a commit costs about as much
 * as its statements); now the starts that arrive together share one (`createTranscript`). Each call
 * still settles on its own: a call that throws leaves the others in (its own statements are a
 * savepoint, or a single statement, which SQLite undoes alone), and resolves only once its
 * write is committed.
 */
export function groupedWrites(
  db: Database.Database,
  schedule: (commit: () => void) => void = setImmediate,
) {
  let queue: Call[] = [];

  const commit = (): void => {
    const calls = queue;
    queue = [];
    const outcomes: Outcome[] = [];
    if (!db.open) {
      for (const call of calls) call.reject(storeClosed());
      return;
    }
    try {
      db.transaction(() => {
        for (const call of calls) {
          // A failure SQLite answers by rolling back the whole transaction (a full disk, an
          // I/O error) must not let the later calls run outside it, each committed alone.
          if (!db.inTransaction) throw new Error("The grouped write transaction was rolled back.");
          try {
            outcomes.push({ ok: true, value: call.write() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      }).immediate();
    } catch (error) {
      // Nothing of it is stored: every call fails (with its own error if it had one).
      calls.forEach((call, index) => {
        const outcome = outcomes[index];
        call.reject(outcome !== undefined && !outcome.ok ? outcome.error : error);
      });
      return;
    }
    calls.forEach((call, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) call.resolve(outcome.value as never);
      else call.reject(outcome.error);
    });
  };

  return function grouped<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) schedule(commit);
      queue.push({ write, resolve: resolve as (value: never) => void, reject });
    });
  };
}

export type GroupedWrite = ReturnType<typeof groupedWrites>;
