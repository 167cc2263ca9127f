/** What a secret is replaced with wherever it would be shown. */
export const REDACTED = "[redacted]";

/**
 * Secret-looking values in provider text: credentials after an auth header or key parameter
 * (`Authorization: Bearer …`, `x-api-key: …`, `"api_key": "…"`, `?key=…`) and tokens with a
 * known key prefix (`sk-…`, `sk-ant-…`, `AIza…`). A provider's error body may echo the
 * request's headers, so its text is never shown unfiltered.
 */
const PATTERNS: readonly RegExp[] = [
  /\b(bearer|basic)(\s+)[^\s"',;()[\]{}<>]{5,}[^\s"',;()[\]{}<>.]/gi,
  /\b((?:x-)?(?:api|goog-api)[-_]?key|authorization|access[-_]?token|auth[-_]?token|password|secret)("?\s*[:=]\s*"?)(?:(?:bearer|basic)\s+)?(?:[^\s"',;&()[\]{}<>]*[^\s"',;&()[\]{}<>.])/gi,
  /([?&](?:key|api_key|apikey|token|access_token)=)()[^&\s"']+/gi,
  /\b()()(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\b()()AIza[A-Za-z0-9_-]{20,}/g,
  /\b()()(?:gsk|xai|hf|ghp|github_pat)_[A-Za-z0-9_]{12,}/g,
];

/**
 * `text` with every known secret value and every secret-looking credential replaced by
 * `[redacted]`. `secrets` are exact values (the configured keys); values shorter than 8
 * characters are ignored, so a stray short variable cannot blank out ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 8) result = result.replaceAll(secret, REDACTED);
  }
  for (const pattern of PATTERNS) {
    result = result.replace(pattern, (_match, name: string | undefined, separator: string) =>
      name === undefined || (name === "" && separator === "")
        ? REDACTED
        : `${name}${separator}${REDACTED}`,
    );
  }
  return result;
}
