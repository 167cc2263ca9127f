import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chooseStore } from "@/lib/server/database-url";
import { StoreError } from "@/lib/store";
import { storeErrorOf } from "@/lib/store/postgres-errors";
import { jsonRoute, MAX_BODY_BYTES, readBody, readCappedText } from "./http";

const schema = z.object({ a: z.unknown() });

/** A body that never ends, counting what was pulled from it. */
function endlessBody(chunk = 64 * 1024) {
  const seen = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.bytes += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x20));
    },
  });
  return { stream, seen };
}

/** A request whose body sends `head` and then stays open; says whether the reader cancelled it. */
function heldOpen(head: Uint8Array) {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request("http://test/", {
    method: "POST",
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { request, cancelled: () => cancelled };
}

/** A request whose body arrives in these parts, one read each. */
function sentInParts(...parts: Uint8Array[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return new Request("http://test/", { method: "POST", body, duplex: "half" } as RequestInit);
}

describe("readBody", () => {
  it("refuses a declared Content-Length over the cap without reading", async () => {
    const { stream, seen } = endlessBody();
    const request = new Request("http://test/", {
      method: "POST",
      body: stream,
      headers: { "content-length": String(MAX_BODY_BYTES + 1) },
      duplex: "half",
    } as RequestInit);
    const response = (await readBody(request, schema)) as Response;
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/^body: larger than/) });
    expect(seen.bytes).toBeLessThanOrEqual(64 * 1024 * 2);
  });

  it("refuses an undeclared body once it passes the cap, reading no further", async () => {
    const { stream, seen } = endlessBody();
    const request = new Request("http://test/", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    const response = (await readBody(request, schema, 1024 * 1024)) as Response;
    expect(response.status).toBe(413);
    // Never more than the cap plus what was already queued.
    expect(seen.bytes).toBeLessThanOrEqual(1024 * 1024 + 3 * 64 * 1024);
  });

  it("refuses deep nesting with a 400 naming the field, before the schema walks it", async () => {
    const deep = `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const request = new Request("http://test/", { method: "POST", body: deep });
    const response = (await readBody(request, z.object({ a: z.json() }))) as Response;
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^a\.0\.0\.0.*: nested deeper than 64 levels\.$/,
    );
  });

  it("refuses a body that is not UTF-8 instead of storing U+FFFD, also when cut mid-sequence", async () => {
    const bytes = [
      Uint8Array.from([...new TextEncoder().encode('{"a":"'), 0xff, 0x22, 0x7d]),
      // "é" cut before its second byte, at the very end.
      Uint8Array.from([...new TextEncoder().encode('{"a":"'), 0xc3]),
    ];
    for (const body of bytes) {
      const request = new Request("http://test/", { method: "POST", body });
      const response = (await readBody(request, schema)) as Response;
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "body: not valid UTF-8." });
    }
    // A multi-byte character split between two reads is fine.
    const [head, tail] = [
      new TextEncoder().encode('{"a":"\u00e9 é'),
      new TextEncoder().encode('"}'),
    ];
    const request = sentInParts(head.slice(0, -1), Uint8Array.from([...head.slice(-1), ...tail]));
    expect(await readBody(request, schema)).toEqual({ a: "é é" });
  });

  it("refuses a body that stops sending mid-way with a 408 naming the limit, and cancels it", async () => {
    const body = heldOpen(new TextEncoder().encode('{"a":'));
    const response = (await readCappedText(body.request, MAX_BODY_BYTES, 20)) as Response;
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(
        /^body: nothing arrived for 0\.02 s \(WIRESCOPE_BODY_IDLE_TIMEOUT_S\)/,
      ),
    });
    expect(body.cancelled()).toBe(true);
  });

  it("refuses bytes that are not UTF-8 as they arrive, while the client holds the body open", async () => {
    const body = heldOpen(Uint8Array.from([...new TextEncoder().encode('{"a":"'), 0xff]));
    // An idle limit far past the test's timeout: only reading as it arrives answers in time.
    const response = (await readCappedText(body.request, MAX_BODY_BYTES, 600_000)) as Response;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "body: not valid UTF-8." });
    expect(body.cancelled()).toBe(true);
  });

  it("keeps a character split across chunks whole", async () => {
    const bytes = new TextEncoder().encode('{"a":"é"}');
    const request = sentInParts(bytes.slice(0, 7), bytes.slice(7));
    expect(await readCappedText(request, MAX_BODY_BYTES)).toBe('{"a":"é"}');
  });

  it("reads a body within the cap", async () => {
    const request = new Request("http://test/", { method: "POST", body: '{"a":[1,{"b":2}]}' });
    expect(await readBody(request, schema)).toEqual({ a: [1, { b: 2 }] });
  });
});

describe("jsonRoute", () => {
  it("answers a handler's exception with a JSON 500 and keeps its details in the log", async () => {
    const failing = jsonRoute(async () => {
      throw new Error("EACCES: permission denied, open '/srv/data/wirescope.db'");
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    const response = await failing().finally(() => {
      console.error = original;
    });
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: "server: the request failed; see the server log." });
    expect(body).not.toContain("/srv");
    expect(errors).toHaveLength(1);
  });
});

/** What `jsonRoute` answers for a handler that throws `error` (its log line kept quiet). */
async function answer(error: unknown): Promise<Response> {
  const original = console.error;
  console.error = () => undefined;
  try {
    return await jsonRoute(async () => {
      throw error;
    })();
  } finally {
    console.error = original;
  }
}

describe("jsonRoute and a store that cannot be used now", () => {
  it("answers 503 naming the cause, with Retry-After, and nothing of the connection", async () => {
    const response = await answer(
      storeErrorOf(
        Object.assign(new Error('too many connections for role "ws"'), { code: "53300" }),
        "postgres://ws:***@db.internal:5432/wirescope",
      ),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      error:
        "store: the database (DATABASE_URL) cannot be used now: the database has too many connections; try again in 2 s (details in the server log).",
      retryAfterSeconds: 2,
    });
    expect(body).not.toContain("db.internal");
    expect(body).not.toContain('"ws"');
  });

  it("answers pg-pool's connect timeout (every connection busy) with a 503, not a 500", async () => {
    const response = await answer(
      storeErrorOf(new Error("timeout exceeded when trying to connect"), "postgres://db/w"),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await response.json()).error).toContain("every database connection");
  });

  it("answers an `unavailable` that gives no cause with a 503 and a default Retry-After", async () => {
    const response = await answer(new StoreError("unavailable", "Cannot connect."));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
  });

  it("answers a DATABASE_URL that is no PostgreSQL URL with a 500 naming it, not a 503 to retry", async () => {
    let refused: unknown;
    try {
      chooseStore({ DATABASE_URL: "mysql://root:pw123@h/db" }, "/data");
    } catch (error) {
      refused = error;
    }
    const response = await answer(refused);
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    const { error } = await response.json();
    expect(error).toMatch(/^store: DATABASE_URL has the scheme "mysql:"; only postgres:\/\//);
    expect(error).toContain("Fix it and restart the server.");
    expect(error).not.toContain("pw123");
  });
});

describe("jsonRoute and a value the store refuses", () => {
  it("answers PostgreSQL's refusal of a NUL character (22021) with a 400 saying so, not a 500", async () => {
    const response = await answer(
      storeErrorOf(
        Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
          code: "22021",
        }),
        "postgres://ws:***@db.internal:5432/wirescope",
      ),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error:
        'store: PostgreSQL cannot store this value: invalid byte sequence for encoding "UTF8": 0x00',
    });
  });

  it("keeps any other failure a 500 that says nothing of it", async () => {
    const response = await answer(new StoreError("conflict", "Transcript x exists."));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: "server: the request failed; see the server log.",
    });
  });
});

describe("jsonRoute and a SQLite store that cannot write", () => {
  const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });

  it("answers a full disk with 507 naming it", async () => {
    const response = await answer(sqlite("SQLITE_FULL", "database or disk is full"));
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({
      error:
        "store: the disk holding the data directory (WIRESCOPE_DATA_DIR) is full; free some space and try again (details in the server log).",
    });
  });

  it("answers a busy database (extended codes too) with 503 and Retry-After", async () => {
    const response = await answer(sqlite("SQLITE_BUSY_SNAPSHOT", "database is locked"));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await response.json()).error).toContain("the database is busy");
  });

  it("answers a read-only database with 503 naming it, and an unknown SQLite code with 500", async () => {
    const readOnly = await answer(
      sqlite("SQLITE_READONLY", "attempt to write a readonly database"),
    );
    expect(readOnly.status).toBe(503);
    expect(readOnly.headers.get("retry-after")).toBeNull();
    expect((await readOnly.json()).error).toContain("read-only");
    expect((await answer(sqlite("SQLITE_MISMATCH", "datatype mismatch"))).status).toBe(500);
  });
});
