import type { Store, Transcript } from "../store/store";
import { otlpRedactor } from "./install";
import { liveExportConfig } from "./live-config";
import { otlpJson } from "./otlp-json";
import { transcriptSpans } from "./transcript-spans";

/**
 * A transcript as one OTLP/JSON `ExportTraceServiceRequest` (one trace per run), the file
 * `GET /api/transcripts/:id/export?format=otlp` downloads. Content only when asked, redacted.
 */
export async function otlpFile(
  store: Pick<Store, "getRunInfo">,
  transcript: Transcript,
  options: { content: boolean },
  env: Record<string, string | undefined> = process.env,
): Promise<Uint8Array> {
  const config = liveExportConfig(env);
  const redact = otlpRedactor(env, config === null || "error" in config ? null : config);
  const spans = await transcriptSpans(store, transcript, { content: options.content, redact });
  return otlpJson(spans);
}
