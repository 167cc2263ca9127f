/** One shared formatter: `toLocaleString` builds a new one per call, too slow per frame. */
const COUNT = new Intl.NumberFormat("en-US");

/** 12345 → "12,345". */
export function formatCount(value: number): string {
  return COUNT.format(value);
}
