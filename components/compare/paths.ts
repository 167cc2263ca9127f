/** The compare view of two transcripts (either may be left for the picker). */
export function comparePath(a?: string, b?: string): string {
  const params = new URLSearchParams();
  if (a !== undefined) params.set("a", a);
  if (b !== undefined) params.set("b", b);
  const query = params.toString();
  return query === "" ? "/compare" : `/compare?${query}`;
}
