import type { Marker } from "./markers";

/**
 * Where the think blocks that end `text` start (-1 when none does): each its opener, its text
 * with no closer in it and its closer, with only whitespace between them and after the last.
 * What `ThinkWriter` writes after a block the answer never closed, so a tag parser ending the
 * stream inside that block can tell the reasoning from the block's own text: the block is
 * unclosed up to there, and the think blocks are read as thinking. A think block the model
 * wrote there itself reads the same, with reasoning written after it or not. Pure.
 */
export function trailingThink(
  text: string,
  markers: { opener: Marker<string>; closer: Marker<string> } | undefined,
): number {
  if (markers === undefined) return -1;
  let start = -1;
  for (let end = text.length; ; ) {
    const open = thinkEndingAt(text, end, markers.opener.text, markers.closer.text);
    if (open < 0) return start;
    start = open;
    end = open;
  }
}

/** Where the think block that ends `text` before `end` (whitespace aside) opens, or -1. */
function thinkEndingAt(text: string, end: number, opener: string, closer: string): number {
  let last = end;
  while (last > 0 && /\s/.test(text.charAt(last - 1))) last--;
  const close = last - closer.length;
  if (close < 0 || !text.startsWith(closer, close)) return -1;
  const open = text.lastIndexOf(opener, close - opener.length);
  if (open < 0) return -1;
  return text.indexOf(closer, open + opener.length) === close ? open : -1;
}
