/**
 * Where configured secret values are in a text, as regions: what whole-text redaction
 * (`redact.ts`) replaces and what stream redaction (`redact-stream.ts`) must never cut. Pure.
 */

/** Where configured values are in a text: `[start, end)`, in order, none overlapping another. */
export interface Region {
  start: number;
  end: number;
}

/**
 * Every place a configured value is in `text`, each value's overlapping places too
 * (`abcabcab` twice in `abcabcabcab`), joined where they overlap: two values sharing a run of
 * text (`…gh12` and `gh12…`), or one inside another, are one region, so nothing of either is
 * left out. Places that only touch stay apart (`[redacted][redacted]`, as before).
 */
export function valueRegions(text: string, values: readonly string[]): Region[] {
  const found: Region[] = [];
  for (const value of values) {
    if (value === "") continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1))
      found.push({ start: at, end: at + value.length });
  }
  if (found.length <= 1) return found;
  // One value's places are found in order already.
  if (values.length > 1) found.sort((a, b) => a.start - b.start || b.end - a.end);
  const regions: Region[] = [];
  for (const place of found) {
    const last = regions.at(-1);
    if (last !== undefined && place.start < last.end) last.end = Math.max(last.end, place.end);
    else regions.push({ ...place });
  }
  return regions;
}

/** `text` with each region (in order, apart) replaced by what `replace` gives for its text. */
export function replaceRegions(
  text: string,
  regions: readonly Region[],
  replace: (region: string) => string,
): string {
  if (regions.length === 0) return text;
  let out = "";
  let from = 0;
  for (const { start, end } of regions) {
    out += text.slice(from, start) + replace(text.slice(start, end));
    from = end;
  }
  return out + text.slice(from);
}
