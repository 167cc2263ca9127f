import {
  idOf,
  jsonRoute,
  notFound,
  otherMethods,
  type RouteContext,
  readQuery,
  redacted,
  server,
} from "@/app/api/http";
import { mergePrices } from "@/lib/cost";
import { summarizeRecords } from "@/lib/metrics";
import { readEnvPrices } from "@/lib/server/prices";
import { exportStream, jsonArrayParts } from "@/lib/transcripts/export-stream";
import { fileSummaryOf } from "@/lib/transcripts/file-summary";
import { exportJsonl } from "@/lib/transcripts/jsonl";
import { markdownParts } from "@/lib/transcripts/markdown";
import { toTaskSteps } from "@/lib/transcripts/task-step-stream";
import { download, fileName } from "./download";
import { exportQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A transcript as a download: JSONL (spec §8), Markdown (with switches) or TaskSteps JSON (§7). */
async function get(request: Request, context: RouteContext): Promise<Response> {
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const query = readQuery(request, exportQuerySchema);
  if (query instanceof Response) return query;
  const { store, config } = server();
  const transcript = await store.getTranscript(id);
  if (transcript === null) return notFound(id);
  // Titles stored before they were redacted still must not name a key in a file name.
  const name = fileName(redacted(transcript.meta.title, config));
  // Costed with the shipped prices and WIRESCOPE_PRICES (the browser's own prices stay there).
  const summary = summarizeRecords(transcript.records, {
    prices: mergePrices(readEnvPrices(process.env).prices),
    model: transcript.meta.model,
  });
  switch (query.format) {
    case "jsonl": {
      const file = exportJsonl(transcript, { summary: fileSummaryOf(summary) });
      return download(file, "application/x-ndjson", `${name}.jsonl`);
    }
    case "markdown": {
      const { reasoning, tools, requests, errors } = query;
      const parts = markdownParts(transcript, {
        summary,
        ...(reasoning === undefined ? {} : { reasoning }),
        ...(tools === undefined ? {} : { tools }),
        ...(requests === undefined ? {} : { requests }),
        ...(errors === undefined ? {} : { errors }),
      });
      const body = exportStream(parts, {
        truncated: (maxBytes) =>
          `\n\n> **Export truncated** at ${Math.round(maxBytes / 1024 / 1024)} MB.\n`,
      });
      return download(body, "text/markdown", `${name}.md`);
    }
    case "tasksteps": {
      // Past the ceiling the download fails rather than saving JSON cut in the middle.
      const body = exportStream(jsonArrayParts(toTaskSteps(transcript.records)));
      return download(body, "application/json", `${name}.tasksteps.json`);
    }
  }
}

export const GET = jsonRoute(get);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
