/**
 * Limits of `POST /api/runs` the page checks too, before sending: no imports, so the page's
 * bundle takes it without the schema.
 */

/**
 * The longest message a run takes, in characters (Unicode code points: an emoji such as 😀
 * is one, not the two UTF-16 code units a string's `length` counts) after trimming.
 */
export const MAX_MESSAGE_CHARS = 200_000;

/**
 * How many characters `text` holds, as `MAX_MESSAGE_CHARS` counts them: code points, a
 * surrogate pair (most emoji, CJK extension B) one. Not grapheme clusters: a cluster can be
 * any length (a letter under a thousand combining marks), and segmenting 200,000 of them took
 * minutes, so a limit in them bounds neither the text nor the check.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    // A high surrogate followed by a low one: one character written as two units.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        at++;
      }
    }
  }
  return count;
}
