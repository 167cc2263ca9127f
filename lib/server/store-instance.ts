import { join } from "node:path";
import { openSqliteStore, type Store } from "../store";
import { interruptCrashedRuns } from "./crash-recovery";

const key = Symbol.for("wirescope.store");
type Holder = { [key]?: { path: string; store: Store } };

/**
 * The server's one store: SQLite under the data directory, opened once per process. Opening it
 * is this server's start: runs a previous process left in flight are marked interrupted
 * (`crash`). SQLite answers synchronously, so the list of those runs is read before this
 * process can start a run of its own, and they are marked before any other I/O is handled.
 */
export function getStore(dataDir: string): Store {
  const holder = globalThis as Holder;
  const path = join(dataDir, "wirescope.db");
  const current = holder[key];
  if (current !== undefined && current.path === path) return current.store;
  const store = openSqliteStore({ path });
  holder[key] = { path, store };
  interruptCrashedRuns(store).catch((error: unknown) => {
    console.error("wirescope: could not mark the runs a crash interrupted:", String(error));
  });
  return store;
}
