import { replaceRegions, valueRegions } from "./value-regions";

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
  // A backslash ends a value: in JSON-escaped text (a result inside a request) it starts `\n`.
  // Whitespace between a name and its value is bounded (64): unbounded, a run of spaces after
  // "basic" was scanned again from each of its positions (64,000 spaces: 6–10 s), and the
  // stream redactor, which lets go of text past 4 KB, could not give the same result.
  // After "basic" (a common word: "basic concepts"), only what could be Base64 credentials,
  // holding a digit, `=`, `+` or `/`.
  bearer:
    /\b(bearer|basic)(\s{1,64})(?=\S)(?:(?<=bearer\s{1,64})|(?=[^\s"',;()[\]{}<>\\]*[0-9=+/]))[^\s"',;()[\]{}<>\\]{5,}[^\s"',;()[\]{}<>.\\]/gi,
  credentialField:
    /\b((?:x-)?(?:api|goog-api)[-_]?key|authorization|access[-_]?token|auth[-_]?token|password|(?:aws_)?secret_access_key|secret)(\\?"?\s{0,64}[:=]\s{0,64}\\?"?)(?:(?:bearer|basic)\s{1,64})?(?:[^\s"',;&()[\]{}<>\\]*[^\s"',;&()[\]{}<>.\\])/gi,
  keyParameter: /([?&](?:key|api_key|apikey|token|access_token)=)()[^&\s"'\\]+/gi,
  // Not after a letter or digit ("disk-…" is no key), but after "_" ("token_sk-…" is). Only a
  // random-looking one is a key (`SECRET_CHECKS`).
  prefixedKey: /(?<![A-Za-z0-9])()()(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  googleKey: /(?<![A-Za-z0-9])()()AIza[A-Za-z0-9_-]{20,}/g,
  vendorToken: /(?<![A-Za-z0-9])()()(?:gsk|xai|hf|ghp|github_pat)_[A-Za-z0-9_]{12,}/g,
  // AWS access key ids (long-term `AKIA…`, temporary `ASIA…`).
  awsKey: /(?<![A-Za-z0-9])()()(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/g,
  // Stripe-style live and test keys (`sk_live_…`, `rk_test_…`).
  underscoredKey: /(?<![A-Za-z0-9])()()(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  slackToken: /(?<![A-Za-z0-9])()()xox[abprs]-[A-Za-z0-9-]{10,}/g,
  jsonWebToken:
    /(?<![A-Za-z0-9_-])()()eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  // The password of a URL (`postgres://admin:…@host`): the scheme and user are kept.
  // The scheme is bounded (real ones are short): unbounded, every word of a long run of letters,
  // digits, "." and "-" scanned the rest of the run for "://", in quadratic time.
  urlPassword: /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:@/"'\\]+:)()[^\s@/"'\\]+(?=@)/gi,
} as const satisfies Record<string, RegExp>;

export type SecretPattern = keyof typeof SECRET_PATTERNS;

/**
 * Matches of these patterns are secrets only when the check says so. Checked here, not in the
 * pattern: lookaheads scanning each match's run again from every `sk-` in it made a run of
 * `sk-sk-sk-…` take quadratic time (120 KB: 25 s).
 */
export const SECRET_CHECKS: Partial<Record<SecretPattern, (match: string) => boolean>> = {
  // A key is random: a digit, or 20 characters or more of both cases after its prefix. Words
  // joined by hyphens (`sk-folding-cube`, a CSS class in a tool result) are no key.
  prefixedKey: (match) => {
    const value = match.slice(3);
    return (
      /[0-9]/.test(value) || (value.length >= 20 && /[a-z]/.test(value) && /[A-Z]/.test(value))
    );
  },
};

/** Whether a match of `name` is a secret (most patterns: always). */
const isSecret = (name: SecretPattern, match: string) => SECRET_CHECKS[name]?.(match) ?? true;

/**
 * Words every `SECRET_PATTERNS` match holds (case aside): `bearer`/`basic`; `key`, `token`,
 * `authorization`, `password`, `secret` for the fields and parameters; the key prefixes; `://`
 * for a URL's password. Text
 * holding none of them cannot match a pattern, so it is checked with one scan instead of six
 * (most text a model streams). A new pattern must start with one of these, or add its own.
 */
export const SECRET_TRIGGERS = [
  "bearer",
  "basic",
  "key",
  "authorization",
  "token",
  "password",
  "secret",
  "sk-",
  "pk-",
  "rk-",
  "aiza",
  "gsk_",
  "xai_",
  "hf_",
  "ghp_",
  "github_pat_",
  "akia",
  "asia",
  "sk_",
  "rk_",
  "pk_",
  "xox",
  "eyj",
  "://",
] as const;

/** Whether `text` holds a `SECRET_TRIGGERS` word (not global: no state between calls). */
export const HAS_TRIGGER = new RegExp(SECRET_TRIGGERS.join("|"), "i");

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
  // Values that overlap (share a run of text, or one holds another) go as one: replaced one
  // after another, the first would leave the rest of the second out in the clear.
  let result = replaceRegions(text, valueRegions(text, configured(secrets)), () => REDACTED);
  if (!HAS_TRIGGER.test(result)) return result;
  for (const name of patterns) {
    result = result.replace(
      SECRET_PATTERNS[name],
      (match, kept: string | undefined, separator: string) =>
        !isSecret(name, match)
          ? match
          : kept === undefined || (kept === "" && separator === "")
            ? REDACTED
            : `${kept}${separator}${REDACTED}`,
    );
  }
  return result;
}

export const ALL_PATTERNS = Object.keys(SECRET_PATTERNS) as SecretPattern[];

/** The configured values redaction looks for: those not too short to be keys. */
function configured(secrets: readonly string[]): readonly string[] {
  return secrets.some((secret) => secret.length < MIN_SECRET_LENGTH)
    ? secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    : secrets;
}

/**
 * Like `redactSecrets`, but each secret is replaced by a mask of its own length (`[redacted**]`,
 * or `*`s when shorter than `[redacted]`), so offsets into the text stay true: for recorded
 * text that events point into by character spans (an imported transcript's chunks).
 */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let result = replaceRegions(text, valueRegions(text, configured(secrets)), (region) =>
    mask(region.length),
  );
  for (const name of ALL_PATTERNS) {
    result = result.replace(
      SECRET_PATTERNS[name],
      (match, kept: string | undefined, separator: string) => {
        if (!isSecret(name, match)) return match;
        const prefix = `${kept ?? ""}${separator ?? ""}`;
        return `${prefix}${mask(match.length - prefix.length)}`;
      },
    );
  }
  return result;
}

function mask(length: number): string {
  return length >= REDACTED.length
    ? `${REDACTED.slice(0, -1)}${"*".repeat(length - REDACTED.length)}]`
    : "*".repeat(length);
}

/**
 * Every string in a JSON-like value through `maskSecrets`, and a string held by a
 * credential-named field masked whole (a new value; the input is kept).
 */
export function maskSecretsDeep<T>(value: T, secrets: readonly string[] = []): T {
  return mapStrings(
    value,
    (text) => maskSecrets(text, secrets),
    (text) => mask(text.length),
  );
}

/**
 * Every string in a JSON-like value through `redactSecrets`, and a string held by a
 * credential-named field redacted whole (a new value; the input is kept).
 */
export function redactSecretsDeep<T>(
  value: T,
  secrets: readonly string[] = [],
  patterns: readonly SecretPattern[] = ALL_PATTERNS,
): T {
  return mapStrings(
    value,
    (text) => redactSecrets(text, secrets, patterns),
    (text) => (text === "" ? text : REDACTED),
  );
}

/** The patterns that match a key by its own shape, whatever text is around it. */
export const KEY_SHAPED: readonly SecretPattern[] = [
  "prefixedKey",
  "googleKey",
  "vendorToken",
  "awsKey",
  "underscoredKey",
  "slackToken",
  "jsonWebToken",
  "urlPassword",
  "bearer",
];

/**
 * For text that is often code (tool results): keys by their shape, and a credential field's
 * value only when it looks like a secret (8 or more characters mixing letters and digits:
 * `"api_key": "zzzz1111…"`), so `password: string;` or `secret = process.env.X` stay as written.
 */
export function redactSecretLooking(text: string): string {
  const shaped = redactSecrets(text, [], KEY_SHAPED);
  if (!HAS_TRIGGER.test(shaped)) return shaped;
  return shaped.replace(
    SECRET_PATTERNS.credentialField,
    (match: string, kept: string, separator: string) =>
      looksSecret(match.slice(kept.length + separator.length))
        ? `${kept}${separator}${REDACTED}`
        : match,
  );
}

const looksSecret = (value: string) =>
  value.length >= 8 && /[0-9]/.test(value) && /[A-Za-z]/.test(value);

/**
 * Every string in a JSON-like value through `redactSecretLooking`; a credential-named field's
 * string when it looks like a secret (`{"password": "string"}` in a schema stays).
 */
export function redactSecretLookingDeep<T>(value: T): T {
  return mapStrings(value, redactSecretLooking, (text) =>
    looksSecret(text) ? REDACTED : redactSecretLooking(text),
  );
}

/**
 * A field named like a credential: the names `credentialField` knows, whole, in any case. In
 * text `"api_key": "…"` is caught by that pattern; as an object's field (an agent's metadata,
 * a tool call's input) no text pattern ever sees it.
 */
export const CREDENTIAL_NAME =
  /^(?:(?:x-)?(?:api|goog-api)[-_]?key|authorization|access[-_]?token|auth[-_]?token|password|(?:aws_)?secret_access_key|secret)$/i;

/**
 * A copy of a JSON-like value with `change` applied to every string in it (keys untouched),
 * and `named` instead to a string a credential-named field holds.
 */
function mapStrings<T>(
  value: T,
  change: (text: string) => string,
  named: (text: string) => string,
): T {
  if (typeof value === "string") return change(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change, named)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        typeof item === "string" && CREDENTIAL_NAME.test(key)
          ? named(item)
          : mapStrings(item, change, named);
    }
    return out as T;
  }
  return value;
}
