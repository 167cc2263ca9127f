/**
 * Marker matching at one position of the scan buffer. A marker that is cut off by the
 * end of the buffer is `"partial"`: the caller holds that tail back until more input
 * arrives, or treats it as text once the stream has ended (`final`).
 */

export interface Marker<K extends string = string> {
  text: string;
  kind: K;
  /**
   * What must follow the marker: `word` — no letter, digit or `_` (so `§end` does not
   * match `§endpoint`); `tag` — whitespace or `>` (so `<action` does not match `<actions>`).
   */
  boundary?: "word" | "tag";
}

export const PARTIAL = "partial";

export function matchMarker<K extends string>(
  buffer: string,
  at: number,
  markers: readonly Marker<K>[],
  final: boolean,
): Marker<K> | typeof PARTIAL | null {
  let partial = false;
  const available = buffer.length - at;
  for (const marker of markers) {
    const text = marker.text;
    const n = Math.min(text.length, available);
    let same = true;
    for (let j = 0; j < n; j++) {
      if (buffer.charCodeAt(at + j) !== text.charCodeAt(j)) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    if (available < text.length) {
      partial = true;
      continue;
    }
    if (marker.boundary === undefined) return marker;
    const after = at + text.length;
    if (after >= buffer.length) {
      if (final) return marker;
      partial = true;
      continue;
    }
    if (boundaryHolds(marker.boundary, buffer.charCodeAt(after))) return marker;
  }
  return partial && !final ? PARTIAL : null;
}

function boundaryHolds(boundary: "word" | "tag", code: number): boolean {
  if (boundary === "tag") return code === 62 /* > */ || isWhitespace(code);
  const isWord =
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95;
  return !isWord;
}

/** The same set of characters `String.prototype.trim` removes. */
export function isWhitespace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The characters that can start one of a set of markers, and a fast search for the next. */
export interface Triggers {
  codes: ReadonlySet<number>;
  /** Index of the next trigger character at or after `from`, or -1. */
  next(buffer: string, from: number): number;
}

export function triggersOf(markers: readonly Marker[]): Triggers {
  const firsts = [...new Set(markers.map((marker) => marker.text.charAt(0)))];
  const codes = new Set(firsts.map((char) => char.charCodeAt(0)));
  const only = firsts.length === 1 ? (firsts[0] as string) : null;
  if (only !== null) return { codes, next: (buffer, from) => buffer.indexOf(only, from) };
  const pattern = new RegExp(`[${firsts.map(escapeClassChar).join("")}]`, "g");
  return {
    codes,
    next(buffer, from) {
      pattern.lastIndex = from;
      return pattern.exec(buffer)?.index ?? -1;
    },
  };
}

function escapeClassChar(char: string): string {
  const code = char.charCodeAt(0);
  // Lone surrogates (a marker starting with an astral character) go in as \u escapes.
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return /[\\\]^-]/.test(char) ? `\\${char}` : char;
}

/** `word` when a marker ends in a word character (`§end` must not match `§endpoint`). */
export function wordBoundary(text: string): "word" | undefined {
  return /[A-Za-z0-9_]$/.test(text) ? "word" : undefined;
}
