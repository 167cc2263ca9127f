import { join } from "node:path";
import { openSqliteStore, type Store } from "../store";

const key = Symbol.for("wirescope.store");
type Holder = { [key]?: { path: string; store: Store } };

/** The server's one store: SQLite under the data directory, opened once per process. */
export function getStore(dataDir: string): Store {
  const holder = globalThis as Holder;
  const path = join(dataDir, "wirescope.db");
  const current = holder[key];
  if (current !== undefined && current.path === path) return current.store;
  const store = openSqliteStore({ path });
  holder[key] = { path, store };
  return store;
}
