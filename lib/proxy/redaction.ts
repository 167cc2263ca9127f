/**
 * Keys never reach a captured transcript (docs/capture-proxy.md), whatever header carried them. Every value
 * of every request header that is not known to be harmless counts as a secret for that call,
 * with the server's configured keys; each record is cleaned of them, and of anything that
 * looks like a credential, before it is stored or shown.
 */
import { redactSecretsDeep } from "../runtime/redact";

/** Headers whose values are protocol, not credentials. */
const HARMLESS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "anthropic-beta",
  "anthropic-version",
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-type",
  "host",
  "origin",
  "pragma",
  "referer",
  "user-agent",
]);

/**
 * The secret values a request carries in its headers (credentials without their scheme), or
 * that its body has a tool send to another server (`toolHeaders` in `request-view.ts`).
 */
export function headerSecrets(headers: Iterable<readonly [string, string]>): string[] {
  const secrets = new Set<string>();
  for (const [named, value] of headers) {
    const name = named.toLowerCase();
    if (HARMLESS.has(name) || name.startsWith("x-wirescope-") || name.startsWith("sec-")) continue;
    if (name.startsWith("x-stainless-")) continue;
    const pieces = [value, value.replace(/^\s*(bearer|basic)\s+/i, "")];
    for (const part of value.split(/[;,]/))
      pieces.push(part.trim(), part.split("=").slice(1).join("=").trim());
    for (const piece of pieces) if (piece.length >= 8) secrets.add(piece);
  }
  // Longest first, so a value is replaced whole before any part of it.
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * `value` with every secret, every credential-looking string, and every string held by a
 * credential-named field replaced by `[redacted]` (a new value; the input is kept).
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  return redactSecretsDeep(value, secrets);
}
