/**
 * The user's preferences as they are kept in the browser (localStorage): read tolerantly,
 * written whole. Storage is outside our control (an older build, another tab, a hand edit), so
 * every field is checked on its own and a bad one is dropped, never the whole object. A field
 * that is absent means "the default" — for `theme`, "follow the OS colour scheme".
 */

import { parsePrices } from "../cost/parse-prices";
import type { Price } from "../cost/types";
import { redactSecretLooking } from "../runtime/redact";

export const PREFERENCES_KEY = "wirescope:preferences";
export const PREFERENCES_VERSION = 1;

export type ThemeChoice = "dark" | "light";
export type DebugTabName = "raw" | "events" | "chunks" | "request";

export interface Preferences {
  dialect?: string;
  provider?: string;
  modelId?: string;
  /** null: the dialect's default prompt. */
  system?: string | null;
  tools?: string[] | null;
  temperature?: number | null;
  maxOutputTokens?: number | null;
  paceMs?: number;
  /** Absent: follow the OS colour scheme. */
  theme?: ThemeChoice;
  debugOpen?: boolean;
  debugTab?: DebugTabName;
  /** The debug panel's width as a share of the window (0–1). */
  debugShare?: number;
  sidebarOpen?: boolean;
  /** Raw's visible-whitespace toggle. */
  rawWhitespace?: boolean;
  draft?: string;
  /** The user's price overrides (USD per million tokens, keyed `provider/model`). */
  prices?: Record<string, Price>;
}

/** Longest draft or system prompt kept; more is cut rather than filling the storage quota. */
const MAX_TEXT = 100_000;
/** Longer than any key the scan knows (a JWT with large claims). */
const SCAN_PAST = 16_384;
const MAX_TOOLS = 200;
const DEBUG_TABS: readonly DebugTabName[] = ["raw", "events", "chunks", "request"];

type Reader<T> = (value: unknown) => T | undefined;

const text: Reader<string> = (value) =>
  typeof value === "string" ? value.slice(0, MAX_TEXT) : undefined;
const shortText: Reader<string> = (value) =>
  typeof value === "string" && value.length > 0 && value.length <= 200 ? value : undefined;
const bool: Reader<boolean> = (value) => (typeof value === "boolean" ? value : undefined);
const finite: Reader<number> = (value) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
const nullable =
  <T>(read: Reader<T>): Reader<T | null> =>
  (value) =>
    value === null ? null : read(value);
const oneOf =
  <T extends string>(options: readonly T[]): Reader<T> =>
  (value) =>
    options.find((option) => option === value);
const share: Reader<number> = (value) =>
  typeof value === "number" && value > 0 && value < 1 ? value : undefined;
const names: Reader<string[]> = (value) =>
  Array.isArray(value) && value.length <= MAX_TOOLS && value.every((item) => shortText(item))
    ? (value as string[])
    : undefined;

const READERS: { [K in keyof Preferences]-?: Reader<Preferences[K]> } = {
  dialect: shortText,
  provider: shortText,
  modelId: shortText,
  system: nullable(text),
  tools: nullable(names),
  temperature: nullable(finite),
  maxOutputTokens: nullable(finite),
  paceMs: finite,
  theme: oneOf<ThemeChoice>(["dark", "light"]),
  debugOpen: bool,
  debugTab: oneOf(DEBUG_TABS),
  debugShare: share,
  sidebarOpen: bool,
  rawWhitespace: bool,
  draft: text,
  prices: (value) => {
    const parsed = parsePrices(value, "prices");
    return parsed.ok ? parsed.prices : undefined;
  },
};

/**
 * Reads stored preferences. Anything unreadable (not JSON, another version, wrong field
 * types) gives `{}` or drops just the bad fields: a broken store never breaks the page.
 */
export function parsePreferences(stored: string | null): Preferences {
  if (stored === null) return {};
  let data: unknown;
  try {
    data = JSON.parse(stored);
  } catch {
    return {};
  }
  if (typeof data !== "object" || data === null) return {};
  const record = data as Record<string, unknown>;
  if (record.version !== PREFERENCES_VERSION) return {};
  const values = typeof record.values === "object" && record.values !== null ? record.values : {};
  const preferences: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(READERS) as [keyof Preferences, Reader<unknown>][]) {
    const value = read((values as Record<string, unknown>)[key]);
    if (value !== undefined) preferences[key] = value;
  }
  return preferences as Preferences;
}

/**
 * The stored form: versioned so a later shape can be told apart (and ignored) safely. A key
 * typed into the draft or the system prompt is not stored: what looks like one is replaced by
 * `[redacted]`, as the server does with a message it records.
 */
export function serializePreferences(preferences: Preferences): string {
  const { draft, system } = preferences;
  // Cut before the scan, and after it to what is read back: a 3 MB paste scanned, encoded and
  // stored whole on each keystroke cost ~0.5 s per key (and the quota). The scan reads a secret's
  // length past the cut (`SCAN_PAST`), so one reaching across it is still found, and not kept.
  const bounded = (text: string, redact: (text: string) => string) =>
    redact(text.slice(0, MAX_TEXT + SCAN_PAST)).slice(0, MAX_TEXT);
  const values: Preferences = {
    ...preferences,
    ...(draft === undefined ? {} : { draft: bounded(draft, redactedDraft) }),
    ...(system === undefined || system === null ? {} : { system: bounded(system, redactedSystem) }),
  };
  return JSON.stringify({ version: PREFERENCES_VERSION, values });
}

/**
 * `redactSecretLooking`, remembering its last text: the page saves its preferences on every
 * change of its store (each record of a run), and a long system prompt takes ~0.1 ms to scan.
 */
function lastRedacted(): (text: string) => string {
  let last: { text: string; redacted: string } | null = null;
  return (text) => {
    if (last?.text !== text) last = { text, redacted: redactSecretLooking(text) };
    return last.redacted;
  };
}
const redactedDraft = lastRedacted();
const redactedSystem = lastRedacted();

/**
 * The theme to paint before any script of the page runs: the stored choice, else the OS
 * colour scheme. The same logic as `THEME_BOOT_SCRIPT`, for code that can call it.
 */
export function initialTheme(stored: string | null, prefersLight: boolean): ThemeChoice {
  return parsePreferences(stored).theme ?? (prefersLight ? "light" : "dark");
}

/**
 * Runs inline in `<head>` before the first paint (no flash of the wrong theme). Kept tiny and
 * self-contained; it must agree with `initialTheme` (a test checks both on the same inputs).
 */
export const THEME_BOOT_SCRIPT = `(function(){var t,s=null;try{s=JSON.parse(localStorage.getItem(${JSON.stringify(PREFERENCES_KEY)})||"null")}catch(e){}if(s&&s.version===${PREFERENCES_VERSION}&&s.values&&(s.values.theme==="dark"||s.values.theme==="light"))t=s.values.theme;try{if(!t)t=matchMedia("(prefers-color-scheme: light)").matches?"light":"dark"}catch(e){t="dark"}document.documentElement.dataset.theme=t})()`;
