import { jsonRoute } from "@/app/api/http";
import { stopRun } from "@/lib/server/active-runs";
import { crossSiteRefusal } from "@/lib/server/same-origin";

export const runtime = "nodejs";

/** Interrupts a run in progress; the run's stream then carries its `interrupt` event and ends. */
async function post(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const { runId } = await context.params;
  if (!stopRun(runId))
    return Response.json({ error: `runId: no run "${runId}" in progress.` }, { status: 404 });
  return Response.json({ stopped: runId });
}

export const POST = jsonRoute(post);
