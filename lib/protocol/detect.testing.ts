/**
 * Test helpers of dialect detection: `plainTextStart`, where an answer's plain text begins
 * worked out over the whole text at once: the rule `PlainTextWatch` (detect.ts) follows a piece
 * at a time, and what its tests hold it to.
 */
import { DEFAULT_DETECT_WINDOW, DETECT_MARKERS, LONGEST_MARKER } from "./detect";

/**
 * Where the answer's plain text begins: the offset of its first character that is not white
 * space, not inside a leading `<think>…</think>` block (shared, so it decides nothing) and not
 * the start of a marker; `-1` while all of it could still be the start of a marked answer.
 * An answer in a dialect almost always opens with a marker or a think block, so once plain text has
 * begun, a caller holding the answer for detection may stop holding it: a plain-text answer
 * (a chat agent's) then streams instead of waiting for its end. Bounded by `windowChars`.
 */
export function plainTextStart(text: string, windowChars = DEFAULT_DETECT_WINDOW): number {
  const window = text.length > windowChars ? text.slice(0, windowChars) : text;
  let at = 0;
  for (;;) {
    while (at < window.length && /\s/.test(window.charAt(at))) at++;
    if (at >= window.length) return -1;
    if (window.startsWith("<think>", at)) {
      const close = window.indexOf("</think>", at + "<think>".length);
      if (close < 0) return -1;
      at = close + "</think>".length;
      continue;
    }
    const rest = window.slice(at, at + LONGEST_MARKER);
    const marked = DETECT_MARKERS.some((marker) =>
      rest.length < marker.length ? marker.startsWith(rest) : rest.startsWith(marker),
    );
    return marked ? -1 : at;
  }
}
