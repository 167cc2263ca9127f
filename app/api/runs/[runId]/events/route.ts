import { guardedRoute, otherMethods, problem, readQuery, server } from "@/app/api/http";
import { runEvents, SSE_HEADERS } from "@/lib/server/run-events";
import { impossibleRunId } from "../../run-id";
import { eventsQuerySchema } from "../../schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Watches a run from any connection, from the records the viewer already has on (docs/live-runs.md). */
async function get(
  request: Request,
  context: { params: Promise<{ runId: string }> },
): Promise<Response> {
  const { runId } = await context.params;
  const impossible = impossibleRunId(runId);
  if (impossible !== null) return impossible;
  // `after` given twice is refused rather than read as one of them (a viewer resuming from the
  // wrong count would repeat or skip records), and so is a parameter this route does not read.
  const query = readQuery(request, eventsQuerySchema);
  if (query instanceof Response) return query;
  const answer = await runEvents(runId, query.after ?? null, server().store);
  if (!answer.ok) return problem(answer.status, answer.error);
  return new Response(answer.body, {
    headers: { ...SSE_HEADERS, "x-transcript-id": answer.transcriptId, "x-run-id": runId },
  });
}

export const GET = guardedRoute(get, { query: "own" });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
