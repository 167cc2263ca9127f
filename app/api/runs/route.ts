import { describeProblem } from "@/app/api/http";
import { readConfig } from "@/lib/server/config";
import { RunRequestError, startRun } from "@/lib/server/runs";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";
import { runRequestSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Starts an agent run and streams its records as server-sent events (spec §9). */
export async function POST(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return Response.json({ error: "body: not valid JSON." }, { status: 400 });
  }
  const parsed = runRequestSchema.safeParse(json);
  if (!parsed.success)
    return Response.json({ error: describeProblem(parsed.error) }, { status: 400 });
  const config = readConfig();
  try {
    const { body, transcriptId, runId } = await startRun(
      parsed.data,
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
