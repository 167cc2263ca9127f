import { jsonRoute, problem, redacted, server } from "@/app/api/http";
import { secretsOf } from "@/lib/providers";
import { redactRecord } from "@/lib/server/provider-run";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { importLimits, parseJsonl } from "@/lib/transcripts/jsonl";
import { importTranscript } from "@/lib/transcripts/store-actions";
import { readUpload } from "./read-upload";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Imports a transcript file (spec §8): the JSONL as the body, or a multipart form with the
 * file as `file`. Every line is validated; a bad file is refused with 400 and the first bad
 * line (`{ error: "line 7: event.type: …", line: 7 }`), a file over the limit with 413. The
 * transcript gets a new id; the file's id is kept as `importedFrom.originalId`.
 */
async function post(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const limits = importLimits(process.env);
  const upload = await readUpload(request, limits.maxBytes);
  if (!upload.ok) return problem(upload.status, upload.message);
  const parsed = parseJsonl(upload.text, limits);
  if (!parsed.ok) {
    const { reason, message, line } = parsed.error;
    return problem(reason === "too_large" && line === undefined ? 413 : 400, message, {
      ...(line === undefined ? {} : { line }),
    });
  }
  const { store, config } = server();
  // A configured key in the file is not stored: not in the title, not in any record.
  const secrets = secretsOf(config.providerEnv);
  const { header, records } = parsed.file;
  const file = {
    header: { ...header, title: redacted(header.title, config) },
    records: records.map((record) => redactRecord(record, secrets)),
  };
  const { meta, origin } = await importTranscript(store, file);
  return Response.json(
    { transcript: meta, importedFrom: origin, records: parsed.file.records.length },
    { status: 201 },
  );
}

export const POST = jsonRoute(post);
