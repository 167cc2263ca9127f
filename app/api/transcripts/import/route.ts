import { guardedRoute, otherMethods, problem, readQuery, redacted, server } from "@/app/api/http";
import { secretsOf } from "@/lib/providers";
import { maskSecretsDeep } from "@/lib/runtime/redact";
import { BodyIdleError, readBodyIdleMs } from "@/lib/server/body-idle";
import { runRegistry } from "@/lib/server/run-registry";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { readNumber, SETTINGS } from "@/lib/server/settings";
import { importLimits } from "@/lib/transcripts/jsonl";
import { type ImportCleaner, importJsonlStream } from "@/lib/transcripts/jsonl-import";
import { importRawTextStream } from "@/lib/transcripts/raw-text-import";
import { readUpload } from "./read-upload";
import { type ImportQuery, importQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Imports a transcript file (docs/transcript-file.md): the JSONL as the body, or a multipart form with the
 * file as `file`. The body streams: every line is validated and its record written as it
 * arrives. A bad file is refused with 400 and the first bad line (`{ error: "line 7:
 * event.type: …", line: 7 }`), a file over the limit with 413, and leaves nothing visible.
 * The transcript gets a new id; the file's id is kept as `importedFrom.originalId`.
 *
 * With `?format=text` the body is a model's raw wire text instead (`raw-text-import.ts`):
 * one model turn, parsed with `?dialect=` or the detected dialect; the reply says which and
 * why (`dialect: { dialect, by, reason }`). Only the parameter switches: a transcript file
 * is never read as text because it failed validation.
 *
 * A client that sends nothing for `WIRESCOPE_BODY_IDLE_TIMEOUT_S` (30 s) mid-body gets 408,
 * and the import leaves nothing visible.
 */
async function post(request: Request): Promise<Response> {
  try {
    return await importBody(request);
  } catch (error) {
    if (error instanceof BodyIdleError) return problem(408, error.message);
    throw error;
  }
}

async function importBody(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  // As every route: `format=jsonl&format=text` is refused, not read as the last one.
  const query = readQuery(request, importQuerySchema);
  if (query instanceof Response) return query;
  const limits = importLimits(readNumber(process.env, SETTINGS.importMaxMb));
  const upload = await readUpload(request, limits.maxBytes, readBodyIdleMs(process.env));
  if (!upload.ok) return problem(upload.status, upload.message);
  const { store, config } = server();
  // A configured key or a key-shaped value in the file is not stored: not in the title, the
  // system prompt (shown and exported as the transcript's own) or any record. Records are
  // masked in place (same length), so the events' spans into the chunks stay true.
  const secrets = secretsOf(config.providerEnv);
  const clean: ImportCleaner = {
    header: (header) => ({
      ...header,
      title: redacted(header.title, config),
      system: redacted(header.system, config),
    }),
    record: (record) => maskSecretsDeep(record, secrets),
    text: (text) => redacted(text, config),
  };
  if (query.format === "text") return importText(query, upload, limits.maxBytes, clean);
  // This instance writes it: should it die mid-import, another purges it (`instance.ts`).
  const { instanceId } = runRegistry();
  const imported = await importJsonlStream(store, upload.body, limits, { clean, instanceId });
  if (!imported.ok) {
    const { reason, message, line } = imported.error;
    return problem(reason === "too_large" && line === undefined ? 413 : 400, message, {
      ...(line === undefined ? {} : { line }),
      ...(line === 1 ? { hint: "To import a model's raw text, add ?format=text." } : {}),
    });
  }
  return Response.json(
    { transcript: imported.meta, importedFrom: imported.origin, records: imported.records },
    { status: 201 },
  );
}

async function importText(
  query: ImportQuery,
  upload: { body: ReadableStream<Uint8Array> | null; name?: string },
  maxBytes: number,
  clean: ImportCleaner,
): Promise<Response> {
  const title = query.title ?? upload.name;
  const imported = await importRawTextStream(server().store, upload.body, {
    maxBytes,
    ...(query.dialect === undefined || query.dialect === "auto" ? {} : { dialect: query.dialect }),
    ...(title === undefined ? {} : { title }),
    clean,
    instanceId: runRegistry().instanceId,
  });
  if (!imported.ok)
    return problem(imported.error.reason === "too_large" ? 413 : 400, imported.error.message);
  return Response.json(
    {
      transcript: imported.meta,
      importedFrom: imported.origin,
      records: imported.records,
      dialect: imported.choice,
    },
    { status: 201 },
  );
}

export const POST = guardedRoute(post, { query: "own" });

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
