/**
 * A `:runId` no run can have (a control character, over 200 characters) is a 404 "no such run"
 * on both run routes, answered before the store is asked. On PostgreSQL a NUL in the id failed
 * `GET /api/runs/a%00b/events` and `POST /api/runs/a%00b/stop` with a 500 (the database refuses
 * a NUL in any text it is sent), and the stop route sent ids of any length to the database.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as eventsRoute } from "./[runId]/events/route";
import { POST as stopRoute } from "./[runId]/stop/route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-run-id-"));
});

const context = (runId: string) => ({ params: Promise.resolve({ runId }) });
const url = (runId: string, tail: string) =>
  `http://localhost/api/runs/${encodeURIComponent(runId)}/${tail}`;

const impossible = ["a\u0000b", "run\u0007", "\u0085", "x".repeat(201)];

describe("a run id no run can have", () => {
  it.each(impossible)("GET …/events of %j is a 404 saying there is no such run", async (runId) => {
    const response = await eventsRoute(new Request(url(runId, "events")), context(runId));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "runId: no such run." });
  });

  it.each(impossible)("POST …/stop of %j is a 404 saying there is no such run", async (runId) => {
    const response = await stopRoute(
      new Request(url(runId, "stop"), { method: "POST" }),
      context(runId),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "runId: no such run." });
  });

  it("leaves an id that could be a run's to the store: an unknown one is named", async () => {
    const runId = "0eb59b45-4212-420f-8699-90b0c6427413";
    const events = await eventsRoute(new Request(url(runId, "events")), context(runId));
    expect(events.status).toBe(404);
    expect(await events.json()).toEqual({ error: `runId: no run "${runId}".` });
    const stop = await stopRoute(
      new Request(url(runId, "stop"), { method: "POST" }),
      context(runId),
    );
    expect(stop.status).toBe(404);
    expect(await stop.json()).toEqual({ error: `runId: no run "${runId}".` });
  });
});
