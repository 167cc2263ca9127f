import { z } from "zod";
import { safeParseJson } from "../protocol/safe-json";
import type { Price } from "./types";

/** At most this many price entries are read from one override (env or settings). */
export const MAX_PRICE_ENTRIES = 500;

const amount = z
  .number({ error: "must be a number (USD per million tokens)" })
  .min(0, { error: "must be 0 or more" })
  .max(100_000, { error: "must be at most 100000" });

const priceSchema = z.strictObject({ input: amount, output: amount });

/** `provider/model`: two non-empty parts, one line, up to 200 characters. */
const KEY = /^[^/\s]+\/[^\s]+$/;

export type PricesResult =
  | { ok: true; prices: Record<string, Price> }
  | { ok: false; error: string };

/**
 * Price overrides from untrusted input (`WIRESCOPE_PRICES`, the settings drawer):
 * `{ "openai/gpt-4.1": { "input": 2, "output": 8 } }`. The error names the first bad field,
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
    const parsed = priceSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      const name = JSON.stringify(key) + (field === undefined ? "" : `.${String(field)}`);
      const message =
        issue?.code === "unrecognized_keys"
          ? `has unexpected field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`
          : field === undefined
            ? 'must be { "input": number, "output": number }'
            : (issue?.message ?? "is invalid");
      return fail(where, `${name} ${message}`);
    }
    prices[key] = parsed.data;
  }
  return { ok: true, prices };
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
