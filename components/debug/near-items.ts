/** A vertical extent in px, in one coordinate space (the viewport's, as `getBoundingClientRect` gives). */
export interface Band {
  top: number;
  bottom: number;
}

/**
 * The indexes of the items (their boxes, in document order) that overlap `view` widened by
 * `margin` above and below. Items are stacked, so the scan stops at the first one past it.
 */
export function itemsNear(boxes: readonly Band[], view: Band, margin: number): number[] {
  const top = view.top - margin;
  const bottom = view.bottom + margin;
  const near: number[] = [];
  for (let index = 0; index < boxes.length; index++) {
    const box = boxes[index] as Band;
    if (box.top > bottom) break;
    if (box.bottom >= top) near.push(index);
  }
  return near;
}

/** Rows a text takes when wrapped at `columns` characters (each line at least one). */
export function wrappedRows(text: string, columns: number): number {
  let rows = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    const length = (end === -1 ? text.length : end) - start;
    rows += Math.max(1, Math.ceil(length / columns));
    if (end === -1) return rows;
    start = end + 1;
  }
}
