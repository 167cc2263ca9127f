/**
 * A run whose start cannot be stored: a database that cannot be used now is left to the route's
 * 503 that names the cause (with Retry-After), any other failure is the run's own 503.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonRoute } from "@/app/api/http";
import { createMemoryStore, type Store, StoreError } from "../store";
import { readConfig } from "./config";
import { RunRequestError, startRun } from "./runs";

function failingCreate(error: unknown): Store {
  const store = createMemoryStore();
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "createTranscript") return async () => Promise.reject(error);
      return Reflect.get(target, property, receiver);
    },
  });
}

async function start(store: Store) {
  const config = readConfig({
    WIRESCOPE_DATA_DIR: await mkdtemp(join(tmpdir(), "wirescope-run-start-")),
  });
  return startRun({ message: "hello", dialect: "xml" }, { store, config });
}

describe("a run start the store cannot take", () => {
  it("a database that cannot be used now: the route answers 503 naming why, with Retry-After", async () => {
    const unavailable = new StoreError("unavailable", "Cannot use postgres://db: too many", {
      why: "the database has too many connections",
      retryAfterSeconds: 2,
    });
    const failure = await start(failingCreate(unavailable)).catch((error: unknown) => error);
    expect(failure).toBe(unavailable);
    const original = console.error;
    console.error = () => undefined;
    const response = await jsonRoute(async () => {
      throw failure;
    })().finally(() => {
      console.error = original;
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect((await response.json()).error).toContain("too many connections");
  });

  it("any other failure: the run's own 503 (storage failed)", async () => {
    const original = console.error;
    console.error = () => undefined;
    const failure = await start(failingCreate(new Error("disk I/O error")))
      .catch((error: unknown) => error)
      .finally(() => {
        console.error = original;
      });
    expect(failure).toBeInstanceOf(RunRequestError);
    expect(failure).toMatchObject({ status: 503, message: /storage failed/ });
  });
});
