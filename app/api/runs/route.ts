import { jsonRoute, readBody } from "@/app/api/http";
import { readConfig } from "@/lib/server/config";
import { RunRequestError, startRun } from "@/lib/server/runs";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";
import { runRequestSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Starts an agent run and streams its records as server-sent events (spec §9). */
async function post(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const parsed = await readBody(request, runRequestSchema);
  if (parsed instanceof Response) return parsed;
  const config = readConfig();
  try {
    const { body, transcriptId, runId } = await startRun(
      parsed,
      { store: getStore(config.dataDir), config },
      request.signal,
    );
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
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

export const POST = jsonRoute(post);
