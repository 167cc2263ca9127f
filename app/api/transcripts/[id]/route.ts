import {
  guardedRoute,
  idOf,
  notFound,
  otherMethods,
  type RouteContext,
  readBody,
  readQuery,
  redacted,
  server,
} from "@/app/api/http";
import { runSpanOf } from "@/lib/replay/run-spans";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import type { Store } from "@/lib/store";
import { openPagedTranscript } from "@/lib/store/paged-transcript";
import { exportStream } from "@/lib/transcripts/export-stream";
import { importOriginOf } from "@/lib/transcripts/store-actions";
import { transcriptJsonParts } from "@/lib/transcripts/transcript-json";
import { pageQuerySchema, renameSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A transcript: its meta, every record (with `seq` and `runId`, streamed from the store a page
 * at a time; records appended meanwhile are left out), and its origin if imported.
 * With `limit` (and `after`, `before`, `from=end`), a page of records instead, plus
 * `recordCount` (the last `seq`): `?limit=500&from=end` is the tail, `?before=N&limit=500&from=end`
 * the page before it. `runs=1` adds `runs`, the transcript's runs as replay times them
 * (`RunSpan`, worked out by the store over every record): a replay reading from the first page
 * knows its whole length.
 */
async function get(request: Request, context: RouteContext): Promise<Response> {
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const query = readQuery(request, pageQuerySchema);
  if (query instanceof Response) return query;
  const { store } = server();
  const { limit, after, before, from, runs } = query;
  if (limit === undefined) return whole(store, id);
  const page = await store.readRecords(id, {
    limit,
    ...(after === undefined ? {} : { after }),
    ...(before === undefined ? {} : { before }),
    ...(from === undefined ? {} : { from }),
  });
  if (page === null) return notFound(id);
  const spans = runs === true ? await store.listTranscriptRuns(id) : undefined;
  if (spans === null) return notFound(id);
  const importedFrom = await importOriginOf(store, id);
  return Response.json({
    ...page,
    ...(spans === undefined ? {} : { runs: spans.map(runSpanOf) }),
    ...(importedFrom === undefined ? {} : { importedFrom }),
  });
}

/** Every record, read and written a page at a time (the body is the same JSON as whole). */
async function whole(store: Store, id: string): Promise<Response> {
  const transcript = await openPagedTranscript(store, id);
  if (transcript === null) return notFound(id);
  const importedFrom = await importOriginOf(store, id);
  const parts = transcriptJsonParts(transcript, importedFrom === undefined ? {} : { importedFrom });
  return new Response(exportStream(parts, { maxBytes: Number.POSITIVE_INFINITY }), {
    headers: { "content-type": "application/json" },
  });
}

/** Renames: `{ title }` (trimmed). */
async function patch(request: Request, context: RouteContext): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const body = await readBody(request, renameSchema);
  if (body instanceof Response) return body;
  const { store, config } = server();
  const meta = await store.renameTranscript(id, redacted(body.title, config));
  return meta === null ? notFound(id) : Response.json({ meta });
}

/**
 * Soft delete: hidden until `POST /api/transcripts/:id/restore`. A run in progress on it (on
 * any instance) is stopped: it would otherwise go on spending tokens on a hidden transcript,
 * and a user deleting a conversation wants none of it (refusing with 409 would make them stop
 * it first, then delete). The active list leaves it out from then on, while it winds down, its
 * runs' events are 404, and their viewers on this instance get `{ "kind": "deleted" }` as their
 * stream's last record.
 */
async function remove(request: Request, context: RouteContext): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const { store } = server();
  if (!(await store.deleteTranscript(id))) return notFound(id);
  const registry = runRegistry();
  const running = (await registry.activeEverywhere(store)).filter((run) => run.transcriptId === id);
  const stopped: string[] = [];
  for (const run of running)
    if (await registry.stopAnywhere(store, run.runId)) stopped.push(run.runId);
  // Its runs' viewers here are told now, not when the stopped runs have wound down.
  registry.endViewersOf(id);
  return Response.json({ deleted: id, ...(stopped.length > 0 ? { stopped } : {}) });
}

export const GET = guardedRoute(get, { query: "own" });
export const PATCH = guardedRoute(patch);
export const DELETE = guardedRoute(remove);

export const { POST, PUT, OPTIONS } = otherMethods("GET", "PATCH", "DELETE");
