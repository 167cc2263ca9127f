import { jsonRoute, otherMethods } from "@/app/api/http";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";

export const runtime = "nodejs";

/** Interrupts a run in progress (from any connection); its viewers then get its `interrupt` event. */
async function post(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const { runId } = await context.params;
  if (!runRegistry().stop(runId))
    return Response.json({ error: `runId: no run "${runId}" in progress.` }, { status: 404 });
  return Response.json({ stopped: runId });
}

export const POST = jsonRoute(post);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
