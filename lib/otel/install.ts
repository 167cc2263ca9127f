import { secretsOf } from "../providers";
import { redactSecrets } from "../runtime/redact";
import { readConfig } from "../server/config";
import type { Store } from "../store/store";
import { liveExportConfig, otlpHeaderValues } from "./live-config";
import { LiveExporter } from "./live-export";

type Env = Record<string, string | undefined>;

/**
 * Text with provider keys, OTLP header values (every header variable's, also when a setting
 * is wrong) and credential-looking values redacted.
 */
export function otlpRedactor(env: Env): (text: string) => string {
  const secrets = [...secretsOf(readConfig(env).providerEnv), ...otlpHeaderValues(env)];
  return (text) => redactSecrets(text, secrets);
}

/** The configured live exporter, or `null` (no endpoint, or a bad setting, which is logged). */
export function liveExporterFromEnv(env: Env = process.env): LiveExporter | null {
  const config = liveExportConfig(env);
  if (config === null) return null;
  if ("error" in config) {
    console.error(`wirescope: live OTLP export is off: ${config.error}`);
    return null;
  }
  return new LiveExporter(config, { redact: otlpRedactor(env) });
}

interface FinishHooks {
  onFinish(listener: (run: { transcriptId: string; runId: string }, store: Store) => void): void;
}

/** Registers live export on the run registry when an endpoint is configured (`run-registry.ts`). */
export function withLiveExport<T extends FinishHooks>(registry: T, env: Env = process.env): T {
  const exporter = liveExporterFromEnv(env);
  if (exporter !== null) registry.onFinish((run, store) => exporter.enqueue({ store, ...run }));
  return registry;
}
