import { guardedRoute, problem, redacted, server } from "@/app/api/http";
import { secretsOf } from "@/lib/providers";
import { redactRecord } from "@/lib/server/provider-run";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { importLimits } from "@/lib/transcripts/jsonl";
import { importJsonlStream } from "@/lib/transcripts/jsonl-import";
import { readUpload } from "./read-upload";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Imports a transcript file (spec §8): the JSONL as the body, or a multipart form with the
 * file as `file`. The body streams: every line is validated and its record written as it
 * arrives. A bad file is refused with 400 and the first bad line (`{ error: "line 7:
 * event.type: …", line: 7 }`), a file over the limit with 413, and leaves nothing visible.
 * The transcript gets a new id; the file's id is kept as `importedFrom.originalId`.
 */
async function post(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const limits = importLimits(process.env);
  const upload = await readUpload(request, limits.maxBytes);
  if (!upload.ok) return problem(upload.status, upload.message);
  const { store, config } = server();
  // A configured key in the file is not stored: not in the title, not in any record.
  const secrets = secretsOf(config.providerEnv);
  const imported = await importJsonlStream(store, upload.body, limits, Date.now, {
    header: (header) => ({ ...header, title: redacted(header.title, config) }),
    record: (record) => redactRecord(record, secrets) as typeof record,
  });
  if (!imported.ok) {
    const { reason, message, line } = imported.error;
    return problem(reason === "too_large" && line === undefined ? 413 : 400, message, {
      ...(line === undefined ? {} : { line }),
    });
  }
  return Response.json(
    { transcript: imported.meta, importedFrom: imported.origin, records: imported.records },
    { status: 201 },
  );
}

export const POST = guardedRoute(post);
