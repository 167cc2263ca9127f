/**
 * Keyboard of a one-tab-stop list (the Events table, the sidebar): which row a key moves to,
 * or `null` when the key does not move. From no row, any move lands on the first (or last).
 */
export function rowAfterKey(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(current + 1, last);
    case "ArrowUp":
      return current < 0 ? last : Math.max(current - 1, 0);
    case "Home":
      return 0;
    case "End":
      return last;
    case "PageDown":
      return current < 0 ? 0 : Math.min(current + 10, last);
    case "PageUp":
      return current < 0 ? 0 : Math.max(current - 10, 0);
    default:
      return null;
  }
}

/** Enter on an event row: collapsed → JSON → (all of it, when long) → collapsed. */
export function nextExpansion(
  expanded: boolean,
  full: boolean,
  long: boolean,
): "collapsed" | "json" | "full" {
  if (!expanded) return "json";
  return long && !full ? "full" : "collapsed";
}
