import { resolve } from "node:path";
import { pickProviderEnv } from "../providers/catalog";
import { isOn, isSet, readNumber, SETTINGS, SWITCHES } from "./settings";

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
  return {
    // A runtime location, not a source file: the comment keeps Next's file tracing from
    // following it (and copying the whole project into the server build).
    dataDir: resolve(/* turbopackIgnore: true */ env.WIRESCOPE_DATA_DIR ?? "data"),
    shell: isOn(env, SWITCHES.shell),
    demoPaceMs: isSet(env, SETTINGS.demoPaceMs) ? readNumber(env, SETTINGS.demoPaceMs) : undefined,
    maxTurns: readNumber(env, SETTINGS.maxTurns),
    idleTimeoutMs: readNumber(env, SETTINGS.streamIdleTimeoutMs),
    stopUnwatchedAfterS: readNumber(env, SETTINGS.stopUnwatchedAfterS),
    leaseMs: Math.round(readNumber(env, SETTINGS.leaseMs)),
    pollMs: Math.round(readNumber(env, SETTINGS.pollMs)),
    maxLiveRuns: readNumber(env, SETTINGS.maxLiveRuns),
    providerEnv: pickProviderEnv(env),
  };
}

export const DEFAULT_LEASE_MS = SETTINGS.leaseMs.fallback;
export const DEFAULT_POLL_MS = SETTINGS.pollMs.fallback;
