/**
 * Dialect detection (`auto`, docs/capture-proxy.md and issue 15): given the first part of a stream, name
 * the dialect whose markers appear. Pure and bounded: it looks at most at `windowChars`
 * characters, so a caller may call it again on a growing prefix until it is decided.
 */

/**
 * The dialects detection can name. Its own union, not `Dialect`, so it can name `hermes`
 * before a parser for it exists; the caller maps the name to a parser in one place.
 */
export type DetectableDialect = "xml" | "delimiter" | "action" | "hermes";

export interface Detection {
  dialect: DetectableDialect;
  /** `false`: no marker that only one dialect writes was seen; `dialect` is the fallback. */
  decided: boolean;
  /** Why, in words: the marker that decided, or what was missing. */
  reason: string;
}

export interface DetectOptions {
  /** The dialect named when nothing decides (default `xml`). */
  fallback?: DetectableDialect;
  /** How much of the text to look at (default 16 384 characters). */
  windowChars?: number;
  /** The text is the whole stream: a word marker at its very end counts (`…§end`). */
  final?: boolean;
  /**
   * Look only at markers starting here or later: a caller that calls again on a growing
   * text passes where the last call left off minus the longest marker, so the whole work
   * stays linear. Offsets in the reason still count from the start of `text`.
   */
  from?: number;
}

/** The longest marker, in characters: how far back a marker cut by the end may start. */
export const LONGEST_MARKER = 16;

export const DEFAULT_DETECT_WINDOW = 16_384;

/**
 * Markers only one dialect writes. `<think>` (xml and hermes) and `<results>` (xml and
 * action) are shared, so they never decide on their own.
 */
const DISTINCTIVE: readonly { marker: string; dialect: DetectableDialect; word?: true }[] = [
  { marker: "<execute>", dialect: "xml" },
  { marker: "<respond>", dialect: "xml" },
  { marker: "<end>", dialect: "xml" },
  { marker: "§think:", dialect: "delimiter" },
  { marker: "§call:", dialect: "delimiter" },
  { marker: "§execute", dialect: "delimiter", word: true },
  { marker: "§respond:", dialect: "delimiter" },
  { marker: "§end", dialect: "delimiter", word: true },
  { marker: "[SYSTEM:", dialect: "delimiter" },
  { marker: "<thought>", dialect: "action" },
  { marker: "<action ", dialect: "action" },
  { marker: "<action>", dialect: "action" },
  { marker: "<response>", dialect: "action" },
  { marker: "<tool_call>", dialect: "hermes" },
  { marker: "<tool_response>", dialect: "hermes" },
];

const SHARED: readonly { marker: string; dialects: string }[] = [
  { marker: "<think>", dialects: "xml and hermes" },
  { marker: "<results>", dialects: "xml and action" },
];

/**
 * The dialect whose distinctive marker comes first in `text`. Text that names markers of
 * several dialects is decided by the earliest one (the reason lists the others); text with
 * only shared markers, or none, is undecided and gets the fallback.
 */
export function detectDialect(text: string, options: DetectOptions = {}): Detection {
  const fallback = options.fallback ?? "xml";
  const limit = options.windowChars ?? DEFAULT_DETECT_WINDOW;
  const window = text.length > limit ? text.slice(0, limit) : text;
  const from = Math.max(0, options.from ?? 0);
  let first: { marker: string; dialect: DetectableDialect; at: number } | undefined;
  const others = new Set<DetectableDialect>();
  for (const { marker, dialect, word } of DISTINCTIVE) {
    const final = options.final === true && window.length === text.length;
    const at =
      word === true ? indexOfWord(window, marker, final, from) : window.indexOf(marker, from);
    if (at < 0) continue;
    others.add(dialect);
    if (first === undefined || at < first.at) first = { marker, dialect, at };
  }
  if (first !== undefined) {
    others.delete(first.dialect);
    const also =
      others.size === 0 ? "" : ` (markers of ${[...others].sort().join(", ")} came later)`;
    return {
      dialect: first.dialect,
      decided: true,
      reason: `${first.marker.trim()} at offset ${first.at} is a ${first.dialect} marker${also}`,
    };
  }
  const shared = SHARED.filter(({ marker }) => window.includes(marker, from));
  if (shared.length > 0) {
    const named = shared.map(({ marker, dialects }) => `${marker} (${dialects})`).join(", ");
    return {
      dialect: fallback,
      decided: false,
      reason: `only shared markers so far: ${named}; ${fallback} until one decides`,
    };
  }
  return {
    dialect: fallback,
    decided: false,
    reason: `no dialect marker ${window.length < text.length ? `in the first ${window.length} characters` : "yet"}; ${fallback} until one appears`,
  };
}

/** Every marker detection knows, distinctive or shared: what an answer may begin with. */
/** Every marker detection knows, distinctive and shared. */
export const DETECT_MARKERS: readonly string[] = [
  ...DISTINCTIVE.map(({ marker }) => marker),
  ...SHARED.map(({ marker }) => marker),
];

/**
 * Whether the text at `at` (up to `end`) could still be the start of a marker, or is one: not
 * plain text yet.
 */
function mayOpenMarker(text: string, at: number, end: number): boolean {
  const rest = text.slice(at, Math.min(end, at + LONGEST_MARKER));
  return DETECT_MARKERS.some((marker) =>
    rest.length < marker.length ? marker.startsWith(rest) : rest.startsWith(marker),
  );
}

/**
 * Where the answer's plain text begins: the offset of its first character that is not white
 * space, not inside a leading `<think>…</think>` block (shared, so it decides nothing) and not
 * the start of a marker; `-1` while all of it could still be the start of a marked answer.
 * An answer in a dialect almost always opens with a marker or a think block, so once plain text
 * has begun, a caller holding the answer for detection may stop holding it. Bounded by
 * `windowChars`. Over a text that grows (an answer held for detection, a piece at a time), each
 * call looks only at what it has not looked at (and a marker's length back): bounded work per
 * piece, where looking at the whole again looked at a long leading think block every time
 * (`plainTextStart` in detect.testing.ts is that whole-text rule, what its tests hold it to).
 */
export class PlainTextWatch {
  /** Before it: white space and whole think blocks. */
  private at = 0;
  /** Inside a leading think block: where to look on for its end. */
  private thinkFrom = -1;

  constructor(private readonly windowChars = DEFAULT_DETECT_WINDOW) {}

  /** Where plain text begins in `text`, the text of the last call grown. */
  start(text: string): number {
    const end = Math.min(text.length, this.windowChars);
    for (;;) {
      if (this.thinkFrom >= 0) {
        const close = text.indexOf("</think>", this.thinkFrom);
        if (close < 0 || close + "</think>".length > end) {
          // A closing marker cut by the end may start up to its length back.
          this.thinkFrom = Math.max(this.thinkFrom, end - "</think>".length + 1);
          return -1;
        }
        this.at = close + "</think>".length;
        this.thinkFrom = -1;
      }
      while (this.at < end && /\s/.test(text.charAt(this.at))) this.at++;
      if (this.at >= end) return -1;
      if (text.startsWith("<think>", this.at) && this.at + "<think>".length <= end) {
        this.thinkFrom = this.at + "<think>".length;
        continue;
      }
      return mayOpenMarker(text, this.at, end) ? -1 : this.at;
    }
  }
}

/**
 * Where `marker` first stands as a whole word (`§end`, not `§endpoint`), as the delimiter
 * parser reads it. At the very end of the text the next character is unknown: not yet,
 * unless the text is final.
 */
function indexOfWord(text: string, marker: string, final: boolean, from: number): number {
  for (let at = text.indexOf(marker, from); at >= 0; at = text.indexOf(marker, at + 1)) {
    const next = text.charAt(at + marker.length);
    if (next === "" ? final : !/[\p{L}\p{N}_]/u.test(next)) return at;
  }
  return -1;
}
