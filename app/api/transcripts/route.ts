import { guardedRoute, otherMethods, readQuery, redacted, server } from "@/app/api/http";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "@/lib/store";
import { listQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Saved transcripts, most recently updated first; `query` searches titles and what the user
 * and the model said. `nextOffset` is the offset of the next page, or null on the last one.
 */
async function get(request: Request): Promise<Response> {
  const query = readQuery(request, listQuerySchema);
  if (query instanceof Response) return query;
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const offset = query.offset ?? 0;
  const { store, config } = server();
  // One more than asked tells whether another page follows.
  const page = await store.listTranscripts({
    ...(query.query === undefined ? {} : { query: query.query }),
    ...(query.source === undefined ? {} : { source: query.source }),
    limit: Math.min(limit + 1, MAX_LIST_LIMIT),
    offset,
  });
  // Titles stored before they were redacted are redacted on the way out.
  const transcripts = page
    .slice(0, limit)
    .map((summary) => ({ ...summary, title: redacted(summary.title, config) }));
  const more = page.length > limit;
  return Response.json({ transcripts, nextOffset: more ? offset + limit : null });
}

export const GET = guardedRoute(get, { query: "own" });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
