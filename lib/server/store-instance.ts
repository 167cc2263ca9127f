import { openPostgresStore, openSqliteStore, type Store, StoreError } from "../store";
import { readConfig } from "./config";
import { chooseStore } from "./database-url";
import { startInstance } from "./instance";
import { runRegistry } from "./run-registry";

const key = Symbol.for("wirescope.store");
type Holder = { [key]?: { where: string; store: Store } };

/**
 * The server's one store, opened once per process: PostgreSQL when `DATABASE_URL` is set
 * (`database-url.ts`), else SQLite under the data directory. Opening it is this server's start
 * as an instance (`instance.ts`; several may share the database): its lease is written and runs
 * no live instance runs — a previous process's, or a killed instance's whose lease has ended —
 * are marked interrupted (`crash`) first, and every call waits for that, so no request sees a
 * transcript that ends mid-block without its reason.
 * A DATABASE_URL that is unusable or unreachable is logged once, naming DATABASE_URL (never its
 * password), the calls waiting reject with that `unavailable` error (routes answer 503), and
 * the next call opens it again.
 */
export function getStore(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): Store {
  const holder = globalThis as Holder;
  const choice = chooseStore(env, dataDir);
  const where = choice.kind === "sqlite" ? choice.path : choice.url;
  const current = holder[key];
  if (current !== undefined && current.where === where) return current.store;
  let opened: Store;
  let ready: Promise<unknown>;
  if (choice.kind === "sqlite") {
    opened = openSqliteStore({ path: choice.path });
    ready = Promise.resolve();
  } else {
    const postgres = openPostgresStore({ connectionString: choice.url });
    opened = postgres;
    ready = postgres.ready().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`wirescope: DATABASE_URL (${choice.shown}) cannot be used: ${reason}`);
      throw error instanceof StoreError
        ? error
        : new StoreError("unavailable", `DATABASE_URL cannot be used: ${reason}`, { cause: error });
    });
  }
  const { leaseMs, pollMs } = readConfig(env);
  const registry = runRegistry();
  registry.pollMs = pollMs;
  const recovered = ready.then(() =>
    startInstance(opened, registry, { leaseMs, pollMs }).ready.catch((error: unknown) => {
      console.error("wirescope: could not mark the runs a crash interrupted:", String(error));
    }),
  );
  const store = afterRecovery(opened, recovered);
  holder[key] = { where, store };
  // Rejections reach every caller. A database that was down is tried again by the next call.
  recovered.catch(() => {
    if (holder[key]?.store === store) delete holder[key];
    opened.close().catch(() => undefined);
  });
  return store;
}

/**
 * The store with every method waiting for `ready` first (all of them are async). Once it has
 * settled, methods are the store's own, bound once: no extra promise and closure per call on
 * the hot append path.
 */
function afterRecovery(store: Store, ready: Promise<unknown>): Store {
  let settled = false;
  // A rejection is the callers' to see (each call awaits `ready`), not an unhandled one here.
  ready.then(
    () => {
      settled = true;
    },
    () => undefined,
  );
  const bound = new WeakMap<object, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      // Subscribing is synchronous (it returns the unsubscribe); it needs no store call first.
      if (typeof value !== "function" || property === "watchAppends") return value;
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
