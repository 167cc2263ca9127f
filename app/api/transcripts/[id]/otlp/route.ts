import { ExportResultCode } from "@opentelemetry/core";
import {
  idOf,
  jsonRoute,
  notFound,
  otherMethods,
  problem,
  type RouteContext,
  server,
} from "@/app/api/http";
import { otlpRedactor } from "@/lib/otel/install";
import { liveExportConfig } from "@/lib/otel/live-config";
import { exportSpans, otlpExporter } from "@/lib/otel/live-export";
import { transcriptSpans } from "@/lib/otel/transcript-spans";
import { crossSiteRefusal } from "@/lib/server/same-origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Sends a transcript's runs as OTLP traces to the endpoint the server is configured with
 * (`WIRESCOPE_OTLP_ENDPOINT`): never to a URL from the request. 409 when none is set, 502
 * when the endpoint refuses or does not answer in time.
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
  const transcript = await store.getTranscript(id);
  if (transcript === null) return notFound(id);
  const redact = otlpRedactor(process.env, config);
  const spans = await transcriptSpans(store, transcript, { content: config.content, redact });
  const exporter = otlpExporter(config);
  try {
    const result = await exportSpans(exporter, spans, config.timeoutMs);
    if (result.code !== ExportResultCode.SUCCESS) {
      const reason = result.error instanceof Error ? result.error.message : "refused";
      return problem(502, `The OTLP endpoint did not take the traces: ${redact(reason)}`);
    }
  } finally {
    await exporter.shutdown().catch(() => undefined);
  }
  const traces = new Set(spans.map((span) => span.spanContext().traceId)).size;
  return Response.json({ sent: { traces, spans: spans.length }, content: config.content });
}

export const POST = jsonRoute(post);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
