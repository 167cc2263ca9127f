/**
 * What a title is cut from: the start of a text, whole words only. A title is redacted before
 * it is cut to 80 characters (a key cut first is no longer the key its redaction looks for:
 * its first 79 characters were stored), and only the start is read (cutting reads graphemes:
 * a 30 MB message took 7 s). A word the limit cuts in two goes, as it may be such a key.
 */
export function startOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = text.slice(0, max);
  const lastSpace = start.search(/\s\S*$/);
  return lastSpace > 0 ? start.slice(0, lastSpace) : start;
}
