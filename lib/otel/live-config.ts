import { isOn, SWITCHES } from "../server/settings";

/** Live OTLP export settings, from the environment (docs/opentelemetry.md). */
export interface LiveExportConfig {
  /** The full traces URL (`…/v1/traces`). */
  url: string;
  headers: Record<string, string>;
  /** Send message content, tool arguments/results and raw wire text. */
  content: boolean;
  timeoutMs: number;
  /** Finished runs waiting to be sent; one more is dropped (and counted). */
  queueSize: number;
  /** How spans are encoded: OTLP/JSON (the default) or OTLP/protobuf, both over HTTP. */
  protocol: OtlpProtocol;
}

export type OtlpProtocol = "http/json" | "http/protobuf";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_QUEUE_SIZE = 100;

type Env = Record<string, string | undefined>;

/**
 * The live export settings, `null` when no endpoint is set (or OpenTelemetry is switched off
 * with `OTEL_SDK_DISABLED=true` / `OTEL_TRACES_EXPORTER=none`), or an error naming the variable.
 * `WIRESCOPE_OTLP_*` come first, then the standard `OTEL_EXPORTER_OTLP_*` names.
 */
export function liveExportConfig(env: Env): LiveExportConfig | null | { error: string } {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return null;
  const url = tracesUrl(env);
  if (url === null) return null;
  if ("error" in url) return url;
  const headers = parseHeaders(firstSet(env, HEADER_VARIABLES));
  if ("error" in headers) return headers;
  const timeout = firstSet(env, [
    "WIRESCOPE_OTLP_TIMEOUT_MS",
    "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
    "OTEL_EXPORTER_OTLP_TIMEOUT",
  ]);
  const timeoutMs = timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(timeout.value);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > 600_000)
    return { error: `${timeout?.name}: must be a whole number of milliseconds from 1 to 600000.` };
  const queue = firstSet(env, ["WIRESCOPE_OTLP_QUEUE"]);
  const queueSize = queue === undefined ? DEFAULT_QUEUE_SIZE : Number(queue.value);
  if (!Number.isInteger(queueSize) || queueSize < 1 || queueSize > 10_000)
    return { error: "WIRESCOPE_OTLP_QUEUE: must be a whole number from 1 to 10000." };
  const protocolSetting = firstSet(env, [
    "WIRESCOPE_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
  ]);
  const protocol = protocolSetting?.value.toLowerCase() ?? "http/json";
  if (protocol !== "http/json" && protocol !== "http/protobuf")
    return {
      error: `${protocolSetting?.name}: must be http/json or http/protobuf (gRPC is not sent); WIRESCOPE_OTLP_PROTOCOL, when set, is used instead.`,
    };
  return {
    url: url.url,
    headers: headers.headers,
    content: isOn(env, SWITCHES.otlpContent),
    timeoutMs,
    queueSize,
    protocol,
  };
}

function firstSet(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== "") return { name, value };
  }
  return undefined;
}

/**
 * `WIRESCOPE_OTLP_ENDPOINT` and `OTEL_EXPORTER_OTLP_ENDPOINT` are a collector's base URL
 * (`/v1/traces` is added unless it is already there); `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * is used as given, as the OpenTelemetry specification says.
 */
function tracesUrl(env: Env): { url: string } | { error: string } | null {
  const base = firstSet(env, ["WIRESCOPE_OTLP_ENDPOINT"]);
  const traces = firstSet(env, ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
  const fallback = firstSet(env, ["OTEL_EXPORTER_OTLP_ENDPOINT"]);
  const chosen = base ?? traces ?? fallback;
  if (chosen === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(chosen.value);
  } catch {
    return { error: `${chosen.name}: must be an http(s) URL.` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return { error: `${chosen.name}: must be an http(s) URL.` };
  if (chosen === traces || parsed.pathname.endsWith("/v1/traces")) return { url: parsed.href };
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, "")}/v1/traces`;
  return { url: parsed.href };
}

/** `key=value,key2=value2` with percent-encoded values (the OTLP exporter format). */
/**
 * Every header value the OTLP variables hold (all three, well-formed entries): what redaction
 * hides, whether or not the settings as a whole can be used.
 */
export function otlpHeaderValues(env: Env): string[] {
  const values: string[] = [];
  for (const name of HEADER_VARIABLES) {
    const value = env[name]?.trim();
    const parsed = value ? parseHeaders({ name, value }) : null;
    if (parsed !== null && "headers" in parsed) values.push(...Object.values(parsed.headers));
  }
  return values;
}

const HEADER_VARIABLES = [
  "WIRESCOPE_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_HEADERS",
];

export function parseHeaders(
  setting: { name: string; value: string } | undefined,
): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  if (setting === undefined) return { headers };
  for (const pair of setting.value.split(",")) {
    if (pair.trim() === "") continue;
    const equals = pair.indexOf("=");
    const key = equals < 0 ? "" : pair.slice(0, equals).trim();
    // The value is never put in the message: it is usually a credential.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      return { error: `${setting.name}: each entry must be name=value with a header name.` };
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      return { error: `${setting.name}: the value of "${key}" is not valid percent-encoding.` };
    }
    headers[key] = value;
  }
  return { headers };
}
