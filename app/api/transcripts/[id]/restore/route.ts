import {
  guardedRoute,
  idOf,
  otherMethods,
  problem,
  type RouteContext,
  server,
} from "@/app/api/http";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Undoes a delete. */
async function post(request: Request, context: RouteContext): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const id = await idOf(context);
  if (id instanceof Response) return id;
  if (await server().store.restoreTranscript(id)) {
    // Its runs may be opened and watched again at once.
    runRegistry().restored(id);
    return Response.json({ restored: id });
  }
  return problem(404, `id: no deleted transcript "${id}".`);
}

export const POST = guardedRoute(post);

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
