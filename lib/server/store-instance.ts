import { join } from "node:path";
import { openSqliteStore, type Store } from "../store";
import { readConfig } from "./config";
import { startInstance } from "./instance";
import { runRegistry } from "./run-registry";

const key = Symbol.for("wirescope.store");
type Holder = { [key]?: { path: string; store: Store } };

/**
 * The server's one store: SQLite under the data directory, opened once per process. Opening it
 * is this server's start as an instance (`instance.ts`): its lease is written and runs no live
 * instance runs — a previous process's, or a killed instance's whose lease has ended — are
 * marked interrupted (`crash`) first, and every call waits for that, so no request sees a
 * transcript that ends mid-block without its reason.
 */
export function getStore(dataDir: string): Store {
  const holder = globalThis as Holder;
  const path = join(dataDir, "wirescope.db");
  const current = holder[key];
  if (current !== undefined && current.path === path) return current.store;
  const opened = openSqliteStore({ path });
  const { leaseMs, pollMs } = readConfig();
  const registry = runRegistry();
  registry.pollMs = pollMs;
  const ready = startInstance(opened, registry, { leaseMs, pollMs }).ready.catch(
    (error: unknown) => {
      console.error("wirescope: could not mark the runs a crash interrupted:", String(error));
    },
  );
  const store = afterRecovery(opened, ready);
  holder[key] = { path, store };
  return store;
}

/** The store with every method waiting for `ready` first (all of them are async). */
function afterRecovery(store: Store, ready: Promise<unknown>): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      // Subscribing is synchronous (it returns the unsubscribe); it needs no store call first.
      if (typeof value !== "function" || property === "watchAppends") return value;
      return async (...args: unknown[]) => {
        await ready;
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
