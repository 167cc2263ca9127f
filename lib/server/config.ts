import { resolve } from "node:path";
import { pickProviderEnv } from "../providers/catalog";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../runtime/stream-idle";

/** Server settings from environment variables (documented in the README and `.env.example`). */
export interface ServerConfig {
  /** Where the database and the workspaces live (`WIRESCOPE_DATA_DIR`, default `./data`). */
  dataDir: string;
  /** Whether the `shell` tool is offered (`WIRESCOPE_ENABLE_SHELL=1`). */
  shell: boolean;
  /** The demo model's pace between pieces in ms (`WIRESCOPE_DEMO_PACE_MS`, default 15). */
  demoPaceMs: number | undefined;
  maxTurns: number;
  /** Stop a model stream that sends nothing for this long (`WIRESCOPE_STREAM_IDLE_TIMEOUT_MS`, default 60 000; 0 = never). */
  idleTimeoutMs: number;
  /**
   * Stop a run that has had no viewer for this many seconds (`WIRESCOPE_STOP_UNWATCHED_AFTER_S`,
   * default 0 = never: a run goes on with nobody watching, and still costs tokens).
   */
  stopUnwatchedAfterS: number;
  /**
   * Several instances on one database: how long an instance's lease lasts without renewal
   * (`WIRESCOPE_LEASE_MS`, default 15 000). Its unfinished runs are marked crashed by another
   * instance only after it ended; it is renewed every third of it.
   */
  leaseMs: number;
  /**
   * How often an instance reads the store for another instance's new records and for stop
   * requests (`WIRESCOPE_POLL_MS`, default 100; a store that notifies is also polled, 10× slower).
   */
  pollMs: number;
  /**
   * The most runs this server keeps going at once (`WIRESCOPE_MAX_LIVE_RUNS`, default 1,000;
   * 0 = no limit): a start beyond it is refused with 429 rather than slowing every run down
   * and holding their memory. Captured calls (the proxy) are not counted or refused.
   */
  maxLiveRuns: number;
  /** The provider variables only (keys included: server-side, never sent or logged). */
  providerEnv: Readonly<Record<string, string>>;
}

export function readConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const pace = env.WIRESCOPE_DEMO_PACE_MS;
  const turns = Number(env.WIRESCOPE_MAX_TURNS ?? 10);
  return {
    // A runtime location, not a source file: the comment keeps Next's file tracing from
    // following it (and copying the whole project into the server build).
    dataDir: resolve(/* turbopackIgnore: true */ env.WIRESCOPE_DATA_DIR ?? "data"),
    shell: env.WIRESCOPE_ENABLE_SHELL === "1",
    demoPaceMs: pace === undefined || pace === "" ? undefined : Math.max(0, Number(pace) || 0),
    maxTurns: Number.isInteger(turns) && turns > 0 ? turns : 10,
    idleTimeoutMs: readIdleTimeout(env.WIRESCOPE_STREAM_IDLE_TIMEOUT_MS),
    stopUnwatchedAfterS: readSeconds(env.WIRESCOPE_STOP_UNWATCHED_AFTER_S),
    leaseMs: readMs(env.WIRESCOPE_LEASE_MS, DEFAULT_LEASE_MS, 1000),
    pollMs: readMs(env.WIRESCOPE_POLL_MS, DEFAULT_POLL_MS, 5),
    maxLiveRuns: readCount(env.WIRESCOPE_MAX_LIVE_RUNS, DEFAULT_MAX_LIVE_RUNS),
    providerEnv: pickProviderEnv(env),
  };
}

function readIdleTimeout(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_IDLE_TIMEOUT_MS;
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_IDLE_TIMEOUT_MS;
}

export const DEFAULT_LEASE_MS = 15_000;
export const DEFAULT_MAX_LIVE_RUNS = 1000;

/** A timeout set in seconds (`…_TIMEOUT_S`), in ms: a positive number, else `fallbackMs`. */
export function timeoutSecondsMs(value: string | undefined, fallbackMs: number): number {
  const seconds = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(seconds) && seconds > 0
    ? seconds * 1000
    : fallbackMs;
}

/** A whole number, 0 or more; the default when unset or not one. */
function readCount(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const count = Number(value);
  return Number.isInteger(count) && count >= 0 ? count : fallback;
}
export const DEFAULT_POLL_MS = 100;

/** A whole number of ms, at least `min`; the default when unset or not a number. */
function readMs(value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const ms = Number(value);
  return Number.isFinite(ms) ? Math.max(min, Math.round(ms)) : fallback;
}

function readSeconds(value: string | undefined): number {
  const seconds = Number(value ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}
