import {
  guardedRoute,
  idOf,
  otherMethods,
  problem,
  type RouteContext,
  transcriptPost,
} from "@/app/api/http";
import { rerunStatus, startRerun } from "@/lib/server/rerun";
import { RunRequestError } from "@/lib/server/runs";
import type { StoredRecord } from "@/lib/store";
import { rerunSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Runs this transcript's first user message (`mode: "first"`) or every one in order (`"all"`)
 * again as a new transcript, on `model` and/or `dialect`, in the background. Answers `202`
 * with the new transcript's id and the first run's id; `GET /api/transcripts/<new id>/rerun`
 * says how far it got.
 */
async function post(request: Request, context: RouteContext): Promise<Response> {
  const start = await transcriptPost(request, context, rerunSchema);
  if (start instanceof Response) return start;
  const { body, source, store, config } = start;
  // A rerun sends the source's user messages again: only those records are kept.
  const records: StoredRecord[] = [];
  for await (const page of source.pages())
    for (const record of page)
      if (record.kind === "event" && record.event.type === "user") records.push(record);
  try {
    const status = await startRerun({ meta: source.meta, records }, body, { store, config });
    return Response.json(status, { status: 202 });
  } catch (error) {
    if (error instanceof RunRequestError) return problem(error.status, error.message);
    throw error;
  }
}

/** A rerun's progress: `{ source, transcriptId, total, done, state, error? }`. */
async function get(_request: Request, context: RouteContext): Promise<Response> {
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const status = rerunStatus(id);
  if (status === null) return problem(404, `id: no rerun of "${id}" on this server.`);
  return Response.json(status, { headers: { "cache-control": "no-store" } });
}

export const POST = guardedRoute(post);
export const GET = guardedRoute(get);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST", "GET");
