import { describe, expect, it } from "vitest";
import { StoreError } from "./errors";
import { storeErrorOf } from "./postgres-errors";

const WHERE = "postgres://ws@db:5432/wirescope";

/** An error as node-postgres rejects with: a message and the SQLSTATE (or Node's code). */
function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe("storeErrorOf", () => {
  it.each([
    ["53300", 'too many connections for role "ws"', "too many connections"],
    ["57014", "canceling statement due to statement timeout", "ran past its time limit"],
    ["57P01", "terminating connection due to administrator command", "shutting down"],
    ["57P02", "terminating connection because of crash of another server process", "crash"],
    ["57P03", "the database system is starting up", "not accepting connections yet"],
    ["55P03", "canceling statement due to lock timeout", "lock wait"],
    ["40001", "could not serialize access due to concurrent update", "conflicted"],
    ["40P01", "deadlock detected", "deadlocked"],
    ["53100", "could not extend file: No space left on device", "out of resources"],
    ["53200", "out of memory", "out of resources"],
    ["25006", "cannot execute UPDATE in a read-only transaction", "read-only"],
    ["08006", "connection failure", "connection to the database broke"],
    ["ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432", "cannot be reached"],
    ["ECONNRESET", "read ECONNRESET", "connection to the database broke"],
  ])("maps SQLSTATE/code %s to `unavailable` naming the cause", (code, message, why) => {
    const mapped = storeErrorOf(driverError(message, code), WHERE);
    expect(mapped).toBeInstanceOf(StoreError);
    const error = mapped as StoreError;
    expect(error.code).toBe("unavailable");
    expect(error.why).toContain(why);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    // The log's message says where and what the server said; the client's `why` says neither.
    expect(error.message).toContain(WHERE);
    expect(error.message).toContain(message);
    expect(error.why).not.toContain("ws");
  });

  it.each([
    ["timeout exceeded when trying to connect", "every database connection of this server is busy"],
    ["Connection terminated due to connection timeout", "cannot be reached"],
    ["Connection terminated unexpectedly", "connection to the database broke"],
    [
      "Client has encountered a connection error and is not queryable",
      "connection to the database broke",
    ],
  ])("maps pg's %j (no code) to `unavailable`", (message, why) => {
    const mapped = storeErrorOf(driverError(message), WHERE) as StoreError;
    expect(mapped).toMatchObject({ code: "unavailable" });
    expect(mapped.why).toContain(why);
  });

  it("maps text PostgreSQL cannot hold to `invalid`", () => {
    const mapped = storeErrorOf(driverError("invalid byte sequence", "22021"), WHERE);
    expect(mapped).toMatchObject({ code: "invalid" });
  });

  it("returns anything else as it is (a bug, a constraint the caller maps)", () => {
    for (const error of [
      driverError('syntax error at or near "SELEC"', "42601"),
      driverError("duplicate key value violates unique constraint", "23505"),
      new TypeError("x is undefined"),
    ])
      expect(storeErrorOf(error, WHERE)).toBe(error);
  });

  it("keeps a StoreError as it is", () => {
    const error = new StoreError("not_found", "gone");
    expect(storeErrorOf(error, WHERE)).toBe(error);
  });
});
