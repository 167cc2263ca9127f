/** Relic values and expiry, shared by every store. */
import { StoreError } from "./errors";

/** The stored form of a relic value. JSON semantics: a `Date` comes back as a string. */
export function encodeRelicValue(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new StoreError("invalid", "A relic value must be JSON-serialisable.", { cause: error });
  }
  if (json === undefined) {
    // `undefined`, functions and symbols: there would be nothing to read back.
    throw new StoreError("invalid", "A relic value must be JSON; use relicDelete to clear a key.");
  }
  return json;
}

/** When a value set at `now` expires (ms since epoch), or `null` for never. */
export function relicExpiry(now: number, ttlSeconds: number | undefined): number | null {
  if (ttlSeconds === undefined) return null;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new StoreError("invalid", "ttlSeconds must be a positive number; omit it for no expiry.");
  }
  return now + Math.round(ttlSeconds * 1000);
}

/** A value is live strictly before its expiry instant. */
export function isLive(expiresAt: number | null, now: number): boolean {
  return expiresAt === null || now < expiresAt;
}
