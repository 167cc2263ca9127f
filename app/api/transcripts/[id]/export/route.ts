import {
  guardedRoute,
  idOf,
  notFound,
  otherMethods,
  type RouteContext,
  readQuery,
  redacted,
  server,
} from "@/app/api/http";
import { mergePrices } from "@/lib/cost";
import { otlpFileParts } from "@/lib/otel/otlp-file";
import { readEnvPrices } from "@/lib/server/prices";
import { openPagedTranscript } from "@/lib/store/paged-transcript";
import { exportStream, jsonArrayPartsOf } from "@/lib/transcripts/export-stream";
import { fileSummaryOf } from "@/lib/transcripts/file-summary";
import { jsonlParts } from "@/lib/transcripts/jsonl";
import { markdownPageParts } from "@/lib/transcripts/markdown-pages";
import { summarizePages } from "@/lib/transcripts/paged-summary";
import { taskStepBatches } from "@/lib/transcripts/task-step-stream";
import { download, fileName } from "./download";
import { exportQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** JSONL and OTLP files have no ceiling: they stream, and grow linearly with the transcript. */
const UNBOUNDED = { maxBytes: Number.POSITIVE_INFINITY };

/**
 * A transcript as a download: JSONL (docs/transcript-file.md), Markdown (with switches), TaskSteps JSON (docs/transcript-file.md)
 * or OTLP/JSON traces (docs/opentelemetry.md). Every format is read from the store a page at
 * a time and written as the client reads (`lib/transcripts/CONTEXT.md`), so memory does not
 * grow with the transcript; the records appended after the download started are left out.
 */
async function get(request: Request, context: RouteContext): Promise<Response> {
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const query = readQuery(request, exportQuerySchema);
  if (query instanceof Response) return query;
  const { store, config } = server();
  const transcript = await openPagedTranscript(store, id);
  if (transcript === null) return notFound(id);
  const { meta } = transcript;
  // Titles stored before they were redacted still must not name a key in a file name.
  const name = fileName(redacted(meta.title, config));
  // Costed with the shipped prices and WIRESCOPE_PRICES (the browser's own prices stay there).
  const costing = { prices: mergePrices(readEnvPrices(process.env).prices), model: meta.model };
  switch (query.format) {
    case "jsonl": {
      const summary = fileSummaryOf(await summarizePages(transcript, costing));
      const body = exportStream(jsonlParts(meta, transcript.pages(), { summary }), UNBOUNDED);
      return download(body, "application/x-ndjson", `${name}.jsonl`);
    }
    case "markdown": {
      const { reasoning, tools, requests, errors } = query;
      const switches = {
        ...(reasoning === undefined ? {} : { reasoning }),
        ...(tools === undefined ? {} : { tools }),
        ...(requests === undefined ? {} : { requests }),
        ...(errors === undefined ? {} : { errors }),
      };
      const parts = markdownPageParts(transcript, switches, costing);
      const body = exportStream(parts, {
        truncated: (maxBytes) =>
          `\n\n> **Export truncated** at ${Math.round(maxBytes / 1024 / 1024)} MB.\n`,
      });
      return download(body, "text/markdown", `${name}.md`);
    }
    case "tasksteps": {
      // Past the ceiling the download fails rather than saving JSON cut in the middle.
      const body = exportStream(jsonArrayPartsOf(taskStepBatches(transcript.pages())));
      return download(body, "application/json", `${name}.tasksteps.json`);
    }
    case "otlp": {
      const content = query.content ?? false;
      const body = exportStream(otlpFileParts(store, transcript, { content }), UNBOUNDED);
      return download(body, "application/json", `${name}.otlp.json`);
    }
  }
}

export const GET = guardedRoute(get, { query: "own" });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
