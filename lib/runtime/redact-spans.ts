import {
  ALL_PATTERNS,
  HAS_TRIGGER,
  SECRET_CHECKS,
  SECRET_PATTERNS,
  type SecretPattern,
} from "./redact";
import { replaceRegions, valueRegions } from "./value-regions";

/** Where a secret starts and ends: a pattern's match, a configured value or a JWT growing. */
export interface SecretSpan {
  start: number;
  end: number;
  pattern?: SecretPattern;
  jwt?: true;
}

/**
 * Where each secret `redactSecrets` replaces in `text` starts and ends: the configured values
 * first, then each pattern in turn on what they left, as it does. A match over a value
 * (`ghp_…` just before a key ends where the key starts) or inside an earlier pattern's match
 * (`?key=` inside a bearer token) is not one it makes, so it says nothing about a cut. Each
 * replacement is mimicked by a cover of the same length (`[rrr…]`, like `[redacted]` to every
 * pattern: a bracket at each end, letters and no trigger word between), so positions stay
 * those of `text`. And a JWT still being written at its end (`growingJwt`).
 */
export function secretSpans(
  text: string,
  values: readonly string[],
  longestHeader: number,
): SecretSpan[] {
  const spans: SecretSpan[] = valueRegions(text, values);
  let masked = replaceRegions(text, spans, (region) => cover(region.length));
  if (!HAS_TRIGGER.test(masked)) return spans;
  // Seen as the JWT pattern sees it: after a value (`[redacted]eyJ…`) it may start.
  const growing = growingJwt(masked, longestHeader);
  if (growing !== null) spans.push(growing);
  for (const pattern of ALL_PATTERNS) {
    const check = SECRET_CHECKS[pattern];
    masked = masked.replace(SECRET_PATTERNS[pattern], (match: string, ...groups: unknown[]) => {
      if (check !== undefined && !check(match)) return match;
      // Every pattern has two groups (kept, separator); the offset follows them.
      const [kept, separator, offset] = groups as [string | undefined, string | undefined, number];
      spans.push({ start: offset, end: offset + match.length, pattern });
      const keep = (kept ?? "").length + (separator ?? "").length;
      return match.slice(0, keep) + cover(match.length - keep);
    });
  }
  return spans;
}

/** The start of a JWT the text ends inside (`eyJ…`, `eyJ….eyJ…`, `eyJ….eyJ….…`). */
const GROWING_JWT =
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*(?:\.(?:eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?)?)?$/;

/**
 * A JWT still being written at the end of `text`: it matches no pattern until its third part
 * starts, so it is held as one. Not a first part alone longer than `longestHeader` (a JWT's
 * header is short; Base64 JSON, a data URI's, starts `eyJ` too and is no secret).
 */
function growingJwt(text: string, longestHeader: number): SecretSpan | null {
  const growing = GROWING_JWT.exec(text);
  if (growing === null) return null;
  if (!growing[0].includes(".") && growing[0].length > longestHeader) return null;
  return { start: growing.index, end: text.length, jwt: true };
}

/** `length` characters standing for `[redacted]`. */
function cover(length: number): string {
  return length >= 2 ? `[${"r".repeat(length - 2)}]` : "]";
}

/**
 * Where the longest tail of `buffer` that starts a configured value begins (its length when
 * none does), moved back to the start of a value the buffer holds whole that it would cut
 * (`…gh12` ends the buffer, and `gh12…` may start there): what is let go of is redacted alone.
 * Only where a value's first character is: real keys are random, so few places.
 */
export function valueCut(buffer: string, values: readonly string[]): number {
  return outsideValues(buffer, startedValue(buffer, values), values);
}

/** `cut`, or the start of the region of configured values it falls strictly inside. */
export function outsideValues(buffer: string, cut: number, values: readonly string[]): number {
  if (values.length === 0) return cut;
  for (const { start, end } of valueRegions(buffer, values)) {
    if (start >= cut) break;
    if (end > cut) return start;
  }
  return cut;
}

/** Where the longest tail of `buffer` that starts a configured value begins. */
export function startedValue(buffer: string, values: readonly string[]): number {
  let cut = buffer.length;
  for (const value of values) {
    const first = value.charCodeAt(0);
    for (let at = Math.max(0, buffer.length - value.length + 1); at < cut; at++) {
      if (buffer.charCodeAt(at) !== first) continue;
      if (buffer.startsWith(value.slice(0, buffer.length - at), at)) {
        cut = at;
        break;
      }
    }
  }
  return cut;
}

/** The first region of configured values in `text` (`valueRegions`: every value it joins), or null. */
export function firstValue(
  text: string,
  values: readonly string[],
): { at: number; length: number } | null {
  const first = valueRegions(text, values)[0];
  return first === undefined ? null : { at: first.start, length: first.end - first.start };
}
