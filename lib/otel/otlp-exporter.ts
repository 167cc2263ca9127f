import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from "@opentelemetry/otlp-exporter-base/node-http";
import {
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { LiveExportConfig } from "./live-config";

/** The SDK's exporter for the configured endpoint, sending OTLP/JSON or OTLP/protobuf. */
export function otlpExporter(config: LiveExportConfig): SpanExporter {
  const options = {
    url: config.url,
    headers: { ...config.headers },
    timeoutMillis: config.timeoutMs,
    concurrencyLimit: 2,
  };
  return config.protocol === "http/protobuf"
    ? new ProtobufTraceExporter(options)
    : new OTLPTraceExporter(options);
}

/**
 * OTLP/protobuf over HTTP, built as the SDK's own protobuf exporter package builds it (the HTTP
 * transport of the JSON exporter's base, with the protobuf serializer), without that package.
 */
class ProtobufTraceExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor(options: ConstructorParameters<typeof OTLPTraceExporter>[0]) {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions(options ?? {}, "TRACES", "v1/traces", {
          "Content-Type": "application/x-protobuf",
        }),
        ProtobufTraceSerializer,
        "otlp_http_span_exporter",
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}
