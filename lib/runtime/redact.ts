/** What a secret is replaced with wherever it would be shown. */
export const REDACTED = "[redacted]";

/**
 * Secret-looking values in provider text: credentials after an auth header or key parameter
 * (`Authorization: Bearer …`, `x-api-key: …`, `"api_key": "…"`, `?key=…`) and tokens with a
 * known key prefix (`sk-…`, `sk-ant-…`, `AIza…`). A provider's error body may echo the
 * request's headers, so its text is never shown unfiltered. Each pattern captures the part
 * kept (a name, a separator) in its first two groups. Named so that each is tested alone.
 */
export const SECRET_PATTERNS = {
  bearer: /\b(bearer|basic)(\s+)[^\s"',;()[\]{}<>]{5,}[^\s"',;()[\]{}<>.]/gi,
  credentialField:
    /\b((?:x-)?(?:api|goog-api)[-_]?key|authorization|access[-_]?token|auth[-_]?token|password|secret)("?\s*[:=]\s*"?)(?:(?:bearer|basic)\s+)?(?:[^\s"',;&()[\]{}<>]*[^\s"',;&()[\]{}<>.])/gi,
  keyParameter: /([?&](?:key|api_key|apikey|token|access_token)=)()[^&\s"']+/gi,
  prefixedKey: /\b()()(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  googleKey: /\b()()AIza[A-Za-z0-9_-]{20,}/g,
  vendorToken: /\b()()(?:gsk|xai|hf|ghp|github_pat)_[A-Za-z0-9_]{12,}/g,
} as const satisfies Record<string, RegExp>;

export type SecretPattern = keyof typeof SECRET_PATTERNS;

/** Configured values shorter than this are ignored: they would blank out ordinary words. */
export const MIN_SECRET_LENGTH = 8;

/**
 * `text` with every known secret value and every secret-looking credential replaced by
 * `[redacted]`. `secrets` are exact values (the configured keys); values shorter than 8
 * characters are ignored, so a stray short variable cannot blank out ordinary words.
 */
export function redactSecrets(
  text: string,
  secrets: readonly string[] = [],
  patterns: readonly SecretPattern[] = ALL_PATTERNS,
): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) result = result.replaceAll(secret, REDACTED);
  }
  for (const name of patterns) {
    result = result.replace(
      SECRET_PATTERNS[name],
      (_match, kept: string | undefined, separator: string) =>
        kept === undefined || (kept === "" && separator === "")
          ? REDACTED
          : `${kept}${separator}${REDACTED}`,
    );
  }
  return result;
}

export const ALL_PATTERNS = Object.keys(SECRET_PATTERNS) as SecretPattern[];
