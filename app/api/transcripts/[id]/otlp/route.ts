import { ExportResultCode } from "@opentelemetry/core";
import {
  guardedRoute,
  idOf,
  notFound,
  otherMethods,
  problem,
  type RouteContext,
  server,
} from "@/app/api/http";
import { otlpRedactor } from "@/lib/otel/install";
import { liveExportConfig } from "@/lib/otel/live-config";
import { exportSpans } from "@/lib/otel/live-export";
import { otlpExporter } from "@/lib/otel/otlp-exporter";
import { pagedRunSpans, spanBatches } from "@/lib/otel/transcript-spans";
import { crossSiteRefusal } from "@/lib/server/same-origin";
import { openPagedTranscript } from "@/lib/store/paged-transcript";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Spans per request to the endpoint: runs are read and sent a few thousand spans at a time
 * (whole runs, so a trace is never split), never the whole transcript at once.
 */
const SPANS_PER_REQUEST = 5000;

/**
 * Sends a transcript's runs as OTLP traces to the endpoint the server is configured with
 * (`WIRESCOPE_OTLP_ENDPOINT`): never to a URL from the request. 409 when none is set, 502
 * when the endpoint refuses or does not answer in time (saying what was sent before, when a
 * long transcript went in several requests).
 */
async function post(request: Request, context: RouteContext): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const id = await idOf(context);
  if (id instanceof Response) return id;
  const config = liveExportConfig(process.env);
  if (config === null)
    return problem(
      409,
      "WIRESCOPE_OTLP_ENDPOINT: not set on the server; set it (and WIRESCOPE_OTLP_HEADERS) to send traces.",
    );
  if ("error" in config) return problem(409, config.error);
  const { store } = server();
  const transcript = await openPagedTranscript(store, id);
  if (transcript === null) return notFound(id);
  const redact = otlpRedactor(process.env);
  const runs = pagedRunSpans(store, transcript, { content: config.content, redact });
  const exporter = otlpExporter(config);
  const traces = new Set<string>();
  let spans = 0;
  try {
    for await (const batch of spanBatches(runs, SPANS_PER_REQUEST)) {
      const result = await exportSpans(exporter, batch, config.timeoutMs);
      if (result.code !== ExportResultCode.SUCCESS) {
        const reason = result.error instanceof Error ? result.error.message : "refused";
        const before =
          spans === 0 ? "" : ` (${spans} spans of ${traces.size} traces were sent before)`;
        return problem(
          502,
          `The OTLP endpoint did not take the traces${before}: ${redact(reason)}`,
        );
      }
      for (const span of batch) traces.add(span.spanContext().traceId);
      spans += batch.length;
    }
  } finally {
    await exporter.shutdown().catch(() => undefined);
  }
  return Response.json({ sent: { traces: traces.size, spans }, content: config.content });
}

export const POST = guardedRoute(post);

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
