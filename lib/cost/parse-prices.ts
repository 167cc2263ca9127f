import { safeParseJson } from "../protocol/safe-json";
import type { Price } from "./types";

/** At most this many price entries are read from one override (env or settings). */
export const MAX_PRICE_ENTRIES = 500;

/** The largest price accepted, USD per million tokens. */
const MAX_AMOUNT = 100_000;
const REQUIRED = ["input", "output"] as const;
const OPTIONAL = ["cacheRead", "cacheWrite", "cacheWrite1h"] as const;
const KNOWN = new Set<string>([...REQUIRED, ...OPTIONAL]);

/** `provider/model`: two non-empty parts, one line, up to 200 characters. */
const KEY = /^[^/\s]+\/[^\s]+$/;

export type PricesResult =
  | { ok: true; prices: Record<string, Price> }
  | { ok: false; error: string };

/**
 * Price overrides from untrusted input (`WIRESCOPE_PRICES`, the settings drawer):
 * `{ "openai/gpt-4.1": { "input": 2, "output": 8, "cacheRead": 0.5 } }` (`cacheRead`,
 * `cacheWrite` and `cacheWrite1h` optional). The error names the first bad field,
 * prefixed with `where` (`WIRESCOPE_PRICES: "openai/x".input must be a number …`).
 */
export function parsePrices(value: unknown, where: string): PricesResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(where, 'must be a JSON object of "provider/model": { input, output }');
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_PRICE_ENTRIES) {
    return fail(where, `has ${entries.length} entries; at most ${MAX_PRICE_ENTRIES} are read`);
  }
  const prices: Record<string, Price> = {};
  for (const [key, entry] of entries) {
    if (key.length > 200 || !KEY.test(key)) {
      return fail(where, `${JSON.stringify(key.slice(0, 200))} must be "provider/model"`);
    }
    const name = JSON.stringify(key);
    const price = readPrice(entry);
    if (typeof price === "string") return fail(where, `${name}${price}`);
    prices[key] = price;
  }
  return { ok: true, prices };
}

/**
 * One `{ input, output }` entry, or what is wrong with it (appended to its quoted key).
 * Written out rather than a zod schema: this module is on the page (the settings drawer and
 * stored preferences read prices), which then loads no zod at all.
 */
function readPrice(entry: unknown): Price | string {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return ' must be { "input": number, "output": number }';
  }
  const fields = entry as Record<string, unknown>;
  const unexpected = Object.keys(fields).filter((field) => !KNOWN.has(field));
  if (unexpected.length > 0) {
    return ` has unexpected field ${unexpected.map((field) => JSON.stringify(field)).join(", ")}`;
  }
  const price: Price = { input: 0, output: 0 };
  for (const field of [...REQUIRED, ...OPTIONAL]) {
    const amount = fields[field];
    if (amount === undefined && !REQUIRED.some((name) => name === field)) continue;
    if (typeof amount !== "number" || !Number.isFinite(amount)) {
      return `.${field} must be a number (USD per million tokens)`;
    }
    if (amount < 0) return `.${field} must be 0 or more`;
    if (amount > MAX_AMOUNT) return `.${field} must be at most ${MAX_AMOUNT}`;
    price[field] = amount;
  }
  return price;
}

/** The same, from JSON text. */
export function parsePricesJson(text: string, where: string): PricesResult {
  const parsed = safeParseJson(text);
  if (!parsed.ok) return fail(where, `is not valid JSON${positionOf(parsed.error)}`);
  return parsePrices(parsed.value, where);
}

/**
 * Where the JSON broke, and nothing of the text itself: the parser's message quotes it, and
 * this error reaches the page (`GET /api/config`) and the log, while the file named may be the
 * wrong one (a `.env` with keys).
 */
function positionOf(message: string): string {
  const at = /at position (\d+)/.exec(message);
  return at === null ? "" : ` (at character ${at[1]})`;
}

function fail(where: string, message: string): PricesResult {
  return { ok: false, error: `${where} ${message}` };
}
