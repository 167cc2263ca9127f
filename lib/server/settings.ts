/**
 * The server's numeric settings: each environment variable with its default and the values it
 * takes. A reader gets the default for a value outside them; `npm start` refuses to start on
 * one (`settingProblems`, through `GET /api/config`), so a typo never quietly becomes a default.
 */

import { DEFAULT_IDLE_TIMEOUT_MS } from "../runtime/stream-idle";

type Env = Readonly<Record<string, string | undefined>>;

/** One numeric setting: a number from `min` (or above it, when `aboveMin`), whole if `whole`. */
export interface NumberSetting {
  variable: string;
  fallback: number;
  min: number;
  aboveMin?: boolean;
  whole?: boolean;
  unit: string;
}

const setting = (
  variable: string,
  fallback: number,
  unit: string,
  rule: Pick<NumberSetting, "min" | "aboveMin" | "whole">,
): NumberSetting => ({ variable, fallback, unit, ...rule });

const POSITIVE = { min: 0, aboveMin: true } as const;

export const SETTINGS = {
  maxTurns: setting("WIRESCOPE_MAX_TURNS", 10, "turns", { min: 1, whole: true }),
  demoPaceMs: setting("WIRESCOPE_DEMO_PACE_MS", 15, "ms", { min: 0 }),
  streamIdleTimeoutMs: setting("WIRESCOPE_STREAM_IDLE_TIMEOUT_MS", DEFAULT_IDLE_TIMEOUT_MS, "ms", {
    min: 0,
  }),
  stopUnwatchedAfterS: setting("WIRESCOPE_STOP_UNWATCHED_AFTER_S", 0, "s", { min: 0 }),
  // A lease shorter than a second would let a busy instance's runs be taken for dead.
  leaseMs: setting("WIRESCOPE_LEASE_MS", 15_000, "ms", { min: 1000 }),
  pollMs: setting("WIRESCOPE_POLL_MS", 100, "ms", { min: 5 }),
  maxLiveRuns: setting("WIRESCOPE_MAX_LIVE_RUNS", 1000, "runs", { min: 0, whole: true }),
  bodyIdleTimeoutS: setting("WIRESCOPE_BODY_IDLE_TIMEOUT_S", 30, "s", POSITIVE),
  importMaxMb: setting("WIRESCOPE_IMPORT_MAX_MB", 1024, "MB", POSITIVE),
  proxyMaxBodyMb: setting("WIRESCOPE_PROXY_MAX_BODY_MB", 32, "MB", POSITIVE),
  proxyRecordMaxKb: setting("WIRESCOPE_PROXY_RECORD_MAX_KB", 4096, "KB", POSITIVE),
  proxyUpstreamIdleTimeoutS: setting("WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S", 600, "s", POSITIVE),
} satisfies Record<string, NumberSetting>;

/** Whether the variable holds anything but blanks. */
export function isSet(env: Env, { variable }: NumberSetting): boolean {
  return (env[variable] ?? "").trim() !== "";
}

/** The setting's value: its default when unset or not one it takes. */
export function readNumber(env: Env, setting: NumberSetting): number {
  const value = parse(env, setting);
  return value === null || numberProblem(env, setting) !== null ? setting.fallback : value;
}

/** What is wrong with the variable's value, naming it and the values it takes; null when fine. */
export function numberProblem(env: Env, setting: NumberSetting): string | null {
  const value = parse(env, setting);
  if (value === null) return null;
  const fits =
    Number.isFinite(value) &&
    (setting.whole !== true || Number.isInteger(value)) &&
    (setting.aboveMin === true ? value > setting.min : value >= setting.min);
  return fits
    ? null
    : `${setting.variable}: must be ${rule(setting)}; unset, it is ${setting.fallback}.`;
}

/** Every numeric setting's problem, in the order of `SETTINGS`. */
export function numberProblems(env: Env): string[] {
  return Object.values(SETTINGS)
    .map((setting) => numberProblem(env, setting))
    .filter((problem) => problem !== null);
}

function parse(env: Env, setting: NumberSetting): number | null {
  return isSet(env, setting) ? Number((env[setting.variable] as string).trim()) : null;
}

function rule({ min, aboveMin, whole, unit }: NumberSetting): string {
  const kind = whole === true ? "a whole number" : "a number";
  const bound = aboveMin === true ? `above ${min}` : `${min} or more`;
  return `${kind} of ${unit}, ${bound}`;
}
