/**
 * The server's one capture recorder, kept across requests (conversations are joined in its
 * memory) and across module reloads in development, like the store.
 */
import { secretsOf } from "../providers/catalog";
import { readBodyIdleMs } from "../server/body-idle";
import type { ServerConfig } from "../server/config";
import { readNumber, SETTINGS } from "../server/settings";
import { getStore } from "../server/store-instance";
import { type Capture, createCapture } from "./capture";
import { type CaptureSink, storeSink, teeSinks } from "./sink";
import { readUpstreamIdleMs } from "./upstream-idle";

export interface ProxyLimits {
  /** `WIRESCOPE_PROXY_MAX_BODY_MB` (default 32): the largest request body forwarded. */
  maxBodyBytes: number;
  /** `WIRESCOPE_PROXY_RECORD_MAX_KB` (default 4096): model text recorded per call. */
  maxRecordChars: number;
  /** `WIRESCOPE_BODY_IDLE_TIMEOUT_S` (default 30): a request body silent this long gets 408. */
  bodyIdleMs: number;
  /** `WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S` (default 600): an upstream silent this long is given up. */
  upstreamIdleMs: number;
}

export function readProxyLimits(
  env: Record<string, string | undefined> = process.env,
): ProxyLimits {
  return {
    maxBodyBytes: Math.round(readNumber(env, SETTINGS.proxyMaxBodyMb) * 1024 * 1024),
    maxRecordChars: Math.round(readNumber(env, SETTINGS.proxyRecordMaxKb) * 1024),
    bodyIdleMs: readBodyIdleMs(env),
    upstreamIdleMs: readUpstreamIdleMs(env),
  };
}

const key = Symbol.for("wirescope.capture");
type Holder = { [key]?: { dataDir: string; capture: Capture } };

/**
 * The capture for this server's store. `extraSink` is where a live view can listen (the run
 * registry, once it exists): pass it to receive every captured record as it is made.
 */
export function getCapture(
  config: ServerConfig,
  limits: ProxyLimits,
  extraSink?: CaptureSink,
): Capture {
  const holder = globalThis as Holder;
  const current = holder[key];
  if (current !== undefined && current.dataDir === config.dataDir) return current.capture;
  const stored = storeSink(getStore(config.dataDir), (message, error) =>
    console.error(`wirescope: ${message}:`, error instanceof Error ? error.message : error),
  );
  const capture = createCapture({
    sink: extraSink === undefined ? stored : teeSinks(stored, extraSink),
    secrets: secretsOf(config.providerEnv),
    maxRecordChars: limits.maxRecordChars,
  });
  holder[key] = { dataDir: config.dataDir, capture };
  return capture;
}
