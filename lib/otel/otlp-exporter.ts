import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import {
  createOtlpHttpExportDelegate,
  httpAgentFactoryFromOptions,
} from "@opentelemetry/otlp-exporter-base/node-http";
import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { LiveExportConfig } from "./live-config";

type Transport = Parameters<typeof createOtlpHttpExportDelegate>[0];

/**
 * The configured endpoint's exporter: the SDK's OTLP/HTTP transport with its JSON or protobuf
 * serializer (what its `exporter-trace-otlp-http` and `-proto` packages are). Configured from
 * `config` alone: those packages also read the `OTEL_EXPORTER_OTLP_*` variables themselves and
 * add, say, `OTEL_EXPORTER_OTLP_HEADERS` to `WIRESCOPE_OTLP_HEADERS`, sending a credential meant
 * for another collector to this one (`live-config.ts` reads those variables, in their order).
 */
export function otlpExporter(config: LiveExportConfig): SpanExporter {
  const protobuf = config.protocol === "http/protobuf";
  const contentType = protobuf ? "application/x-protobuf" : "application/json";
  const transport: Transport = {
    url: config.url,
    headers: async () => ({ ...config.headers, "Content-Type": contentType }),
    timeoutMillis: config.timeoutMs,
    concurrencyLimit: 2,
    compression: "none",
    agentFactory: httpAgentFactoryFromOptions({ keepAlive: true }),
  };
  return new TraceExporter(transport, protobuf ? ProtobufTraceSerializer : JsonTraceSerializer);
}

class TraceExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor(
    transport: Transport,
    serializer: typeof JsonTraceSerializer | typeof ProtobufTraceSerializer,
  ) {
    super(
      createOtlpHttpExportDelegate(
        transport,
        serializer,
        "otlp_http_span_exporter",
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}
