import { guardedRoute, otherMethods } from "@/app/api/http";
import { readConfig } from "@/lib/server/config";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { getStore } from "@/lib/server/store-instance";

export const runtime = "nodejs";

/**
 * Interrupts a run in progress (from any connection, on any instance sharing the database);
 * its viewers then get its `interrupt` event.
 */
async function post(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const { runId } = await context.params;
  const store = getStore(readConfig().dataDir);
  if (!(await runRegistry().stopAnywhere(store, runId)))
    return Response.json({ error: `runId: no run "${runId}" in progress.` }, { status: 404 });
  return Response.json({ stopped: runId });
}

export const POST = guardedRoute(post);

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
