import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

/** An OTLP/JSON `ExportTraceServiceRequest`, as the SDK's own serializer writes it. */
export function otlpJson(spans: ReadableSpan[]): Uint8Array {
  const bytes = JsonTraceSerializer.serializeRequest(spans);
  if (bytes === undefined) throw new Error("The OTLP serializer returned nothing for these spans.");
  return bytes;
}
