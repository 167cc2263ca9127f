import { join } from "node:path";
import { openSqliteStore, type Store } from "../store";
import { interruptCrashedRuns } from "./crash-recovery";

const key = Symbol.for("wirescope.store");
type Holder = { [key]?: { path: string; store: Store } };

/**
 * The server's one store: SQLite under the data directory, opened once per process. Opening it
 * is this server's start: runs a previous process left in flight are marked interrupted
 * (`crash`) first, and every call waits for that, so no request sees a transcript that ends
 * mid-block without its reason.
 */
export function getStore(dataDir: string): Store {
  const holder = globalThis as Holder;
  const path = join(dataDir, "wirescope.db");
  const current = holder[key];
  if (current !== undefined && current.path === path) return current.store;
  const opened = openSqliteStore({ path });
  const ready = interruptCrashedRuns(opened).catch((error: unknown) => {
    console.error("wirescope: could not mark the runs a crash interrupted:", String(error));
  });
  const store = afterRecovery(opened, ready);
  holder[key] = { path, store };
  return store;
}

/**
 * The store with every method waiting for `ready` first (all of them are async). Once it has
 * settled, methods are the store's own, bound once: no extra promise and closure per call on
 * the hot append path.
 */
function afterRecovery(store: Store, ready: Promise<unknown>): Store {
  let settled = false;
  void ready.then(() => {
    settled = true;
  });
  const bound = new WeakMap<object, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = value as (...parameters: unknown[]) => unknown;
      if (!settled) {
        return async (...args: unknown[]) => {
          await ready;
          return method.apply(target, args);
        };
      }
      let own = bound.get(method);
      if (own === undefined) {
        own = method.bind(target);
        bound.set(method, own);
      }
      return own;
    },
  });
}
