import { guardedRoute, otherMethods, readBody, readQuery } from "@/app/api/http";
import { readConfig } from "@/lib/server/config";
import { SSE_HEADERS } from "@/lib/server/run-events";
import { type ActiveRun, runRegistry } from "@/lib/server/run-registry";
import { RunRequestError, startRun } from "@/lib/server/runs";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";
import type { Store } from "@/lib/store";
import { activeQuerySchema, runRequestSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Starts an agent run and streams its records as server-sent events (docs/http-api.md). */
async function post(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const parsed = await readBody(request, runRequestSchema);
  if (parsed instanceof Response) return parsed;
  const config = readConfig();
  try {
    const { body, transcriptId, runId } = await startRun(parsed, {
      store: getStore(config.dataDir),
      config,
    });
    return new Response(body, {
      headers: {
        ...SSE_HEADERS,
        "x-transcript-id": transcriptId,
        "x-run-id": runId,
      },
    });
  } catch (error) {
    if (error instanceof RunRequestError)
      return Response.json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export const POST = guardedRoute(post);

/**
 * `GET /api/runs?active=1`: the runs in progress on every instance sharing the database, with
 * their transcripts and record counts (docs/live-runs.md). Not a deleted transcript's: deleting it
 * stopped its run, which may take a moment to wind down (here until its records are stored,
 * on another instance until it next reads its stop requests), and the page could not open it.
 */
async function get(request: Request): Promise<Response> {
  const query = readQuery(request, activeQuerySchema);
  if (query instanceof Response) return query;
  const store = getStore(readConfig().dataDir);
  const runs = await runRegistry().activeEverywhere(store);
  return Response.json(
    { runs: await withoutDeleted(store, runs) },
    { headers: { "cache-control": "no-store" } },
  );
}

/** The runs whose transcript is still there (one one-record read per transcript). */
async function withoutDeleted(store: Store, runs: ActiveRun[]): Promise<ActiveRun[]> {
  const ids = [...new Set(runs.map((run) => run.transcriptId))];
  const shown = new Set<string>();
  for (const id of ids)
    if ((await store.readRecords(id, { limit: 1, from: "end" })) !== null) shown.add(id);
  return runs.filter((run) => shown.has(run.transcriptId));
}

export const GET = guardedRoute(get, { query: "own" });

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST", "GET");
