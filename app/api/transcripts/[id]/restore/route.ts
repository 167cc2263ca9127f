import { idOf, problem, type RouteContext, server } from "../../http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Undoes a delete. */
export async function POST(_request: Request, context: RouteContext): Promise<Response> {
  const id = await idOf(context);
  if (id instanceof Response) return id;
  if (await server().store.restoreTranscript(id)) return Response.json({ restored: id });
  return problem(404, `id: no deleted transcript "${id}".`);
}
