/**
 * The server's numeric settings and switches: each environment variable with its default and
 * the values it takes. A reader gets the default for a value outside them; `npm start` refuses
 * to start on one (`settingProblems`, through `GET /api/config`), so a typo never quietly
 * becomes a default (`WIRESCOPE_ENABLE_SHELL=true` left the shell off without a word).
 */

import { DEFAULT_IDLE_TIMEOUT_MS } from "../runtime/stream-idle";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * One numeric setting: a number from `min` (or above it, when `aboveMin`) up to `max`, whole if
 * `whole`.
 */
export interface NumberSetting {
  variable: string;
  fallback: number;
  min: number;
  aboveMin?: boolean;
  max?: number;
  whole?: boolean;
  unit: string;
  /** What 0 means, when it means something else than a count or a wait of nothing. */
  zero?: string;
}

const setting = (
  variable: string,
  fallback: number,
  unit: string,
  rule: Pick<NumberSetting, "min" | "aboveMin" | "max" | "whole" | "zero">,
): NumberSetting => ({ variable, fallback, unit, ...rule });

/**
 * The longest wait a timer takes (2^31 − 1 ms, about 24.8 days): Node runs a longer one after
 * 1 ms, so a timeout set to a year would fire at once.
 */
const TIMER_MAX_MS = 2_147_483_647;
const MS = { max: TIMER_MAX_MS } as const;
const SECONDS = { max: Math.floor(TIMER_MAX_MS / 1000) } as const;
const POSITIVE = { min: 0, aboveMin: true } as const;

export const SETTINGS = {
  maxTurns: setting("WIRESCOPE_MAX_TURNS", 10, "turns", { min: 1, whole: true }),
  demoPaceMs: setting("WIRESCOPE_DEMO_PACE_MS", 15, "ms", { min: 0, ...MS }),
  streamIdleTimeoutMs: setting("WIRESCOPE_STREAM_IDLE_TIMEOUT_MS", DEFAULT_IDLE_TIMEOUT_MS, "ms", {
    min: 0,
    zero: "never",
    ...MS,
  }),
  stopUnwatchedAfterS: setting("WIRESCOPE_STOP_UNWATCHED_AFTER_S", 0, "seconds", {
    min: 0,
    zero: "never",
    ...SECONDS,
  }),
  // A lease shorter than a second would let a busy instance's runs be taken for dead.
  leaseMs: setting("WIRESCOPE_LEASE_MS", 15_000, "ms", { min: 1000, ...MS }),
  // On PostgreSQL another instance's run is also read every tenth poll.
  pollMs: setting("WIRESCOPE_POLL_MS", 100, "ms", { min: 5, max: Math.floor(TIMER_MAX_MS / 10) }),
  maxLiveRuns: setting("WIRESCOPE_MAX_LIVE_RUNS", 1000, "runs", {
    min: 0,
    whole: true,
    zero: "no limit",
  }),
  bodyIdleTimeoutS: setting("WIRESCOPE_BODY_IDLE_TIMEOUT_S", 30, "seconds", {
    ...POSITIVE,
    ...SECONDS,
  }),
  importMaxMb: setting("WIRESCOPE_IMPORT_MAX_MB", 1024, "MB", POSITIVE),
  proxyMaxBodyMb: setting("WIRESCOPE_PROXY_MAX_BODY_MB", 32, "MB", POSITIVE),
  proxyRecordMaxKb: setting("WIRESCOPE_PROXY_RECORD_MAX_KB", 4096, "KB", POSITIVE),
  proxyUpstreamIdleTimeoutS: setting("WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S", 600, "seconds", {
    ...POSITIVE,
    ...SECONDS,
  }),
} satisfies Record<string, NumberSetting>;

/** Whether the variable holds anything but blanks. */
export function isSet(env: Env, { variable }: NumberSetting): boolean {
  return (env[variable] ?? "").trim() !== "";
}

/** The setting's value: its default when unset or not one it takes. */
export function readNumber(env: Env, setting: NumberSetting): number {
  const value = parse(env, setting);
  return value !== null && fits(value, setting) ? value : setting.fallback;
}

/** What is wrong with the variable's value, naming it and the values it takes; null when fine. */
export function numberProblem(env: Env, setting: NumberSetting): string | null {
  const value = parse(env, setting);
  return value === null || fits(value, setting)
    ? null
    : `${setting.variable}: must be ${rule(setting)}; unset, it is ${setting.fallback}.`;
}

function fits(value: number, setting: NumberSetting): boolean {
  return (
    Number.isFinite(value) &&
    (setting.whole !== true || Number.isInteger(value)) &&
    (setting.aboveMin === true ? value > setting.min : value >= setting.min) &&
    value <= (setting.max ?? Number.MAX_VALUE)
  );
}

/** Switches: `1` turns one on; unset, blank or `0` leave it off. */
export const SWITCHES = {
  shell: "WIRESCOPE_ENABLE_SHELL",
  otlpContent: "WIRESCOPE_OTLP_CONTENT",
} as const;

export function isOn(env: Env, variable: string): boolean {
  return (env[variable] ?? "").trim() === "1";
}

function switchProblem(env: Env, variable: string): string | null {
  const value = (env[variable] ?? "").trim();
  return value === "" || value === "0" || value === "1"
    ? null
    : `${variable}: must be 1 (on) or 0 (off); unset, it is off.`;
}

/** Every numeric setting's and switch's problem, in the order of `SETTINGS` and `SWITCHES`. */
export function settingProblems(env: Env): string[] {
  return [
    ...Object.values(SETTINGS).map((setting) => numberProblem(env, setting)),
    ...Object.values(SWITCHES).map((variable) => switchProblem(env, variable)),
  ].filter((problem) => problem !== null);
}

function parse(env: Env, setting: NumberSetting): number | null {
  return isSet(env, setting) ? Number((env[setting.variable] as string).trim()) : null;
}

function rule({ min, aboveMin, max, whole, unit, zero }: NumberSetting): string {
  const kind = whole === true ? "a whole number" : "a number";
  const from = aboveMin === true ? `above ${min}` : `${min} or more`;
  const to = max === undefined ? "" : ` and at most ${max}`;
  return `${kind} of ${unit}, ${from}${to}${zero === undefined ? "" : ` (0: ${zero})`}`;
}
