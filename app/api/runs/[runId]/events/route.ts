import { guardedRoute, otherMethods, problem, server } from "@/app/api/http";
import { runEvents, SSE_HEADERS } from "@/lib/server/run-events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Watches a run from any connection, from the records the viewer already has on (spec §10). */
async function get(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  if (runId.length > 200) return problem(404, "runId: no such run.");
  const after = new URL(request.url).searchParams.get("after");
  const answer = await runEvents(runId, after, server().store);
  if (!answer.ok) return problem(answer.status, answer.error);
  return new Response(answer.body, {
    headers: { ...SSE_HEADERS, "x-transcript-id": answer.transcriptId, "x-run-id": runId },
  });
}

export const GET = guardedRoute(get);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
