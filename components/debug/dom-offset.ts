/**
 * Maps between DOM points and offsets into the text an element renders. The raw view renders
 * every character of a turn's raw text exactly once, in order, and nothing else inside its
 * text element, so the n-th character of the element's text nodes is the n-th UTF-16 code
 * unit of the raw text (astral characters are two units in both, "\r\n" is two characters in
 * both).
 *
 * What the raw view draws besides the text — line numbers in the gutter, whitespace symbols —
 * is generated content (CSS `::before` with `content: attr(data-…)`): it is not in the DOM's
 * text nodes, so it never counts here and a selection cannot start inside it.
 *
 * The raw view draws only the blocks of lines near the screen: each block is an element with
 * `data-block-start` and `data-block-end` (its offsets in the text), empty while off screen.
 * Inside such a root, offsets count from the block the point is in, so what is not drawn
 * never shifts them.
 */

/** A block of lines of the raw view: where its text begins and ends in the whole text. */
const BLOCK = "[data-block-start]";

function blockRange(element: Element): { start: number; end: number } {
  return {
    start: Number(element.getAttribute("data-block-start")),
    end: Number(element.getAttribute("data-block-end")),
  };
}

/** The text offset of the DOM point (node, offset) inside `root`, or null when outside it. */
export function textOffsetOf(root: Node, node: Node, offset: number): number | null {
  if (!root.contains(node)) return null;
  if (root instanceof Element && root.querySelector(BLOCK) !== null)
    return blockOffsetOf(root, node, offset);
  return flatOffsetOf(root, node, offset);
}

/** Within blocks: the point's block start plus its offset inside the block. */
function blockOffsetOf(root: Element, node: Node, offset: number): number | null {
  const element = node instanceof Element ? node : node.parentElement;
  const block = element?.closest(BLOCK);
  if (block !== null && block !== undefined && root.contains(block)) {
    const inside = flatOffsetOf(block, node, offset);
    return inside === null ? null : blockRange(block).start + inside;
  }
  // A point between blocks (on the root or a wrapper): the start of the first block after it.
  const document = root.ownerDocument ?? globalThis.document;
  const point = document.createRange();
  point.setStart(node, offset);
  let end = 0;
  for (const candidate of root.querySelectorAll(BLOCK)) {
    if (point.comparePoint(candidate, 0) >= 0) return blockRange(candidate).start;
    end = blockRange(candidate).end;
  }
  return end;
}

function flatOffsetOf(root: Node, node: Node, offset: number): number | null {
  const document = root.ownerDocument ?? globalThis.document;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let boundary: Range | null = null;
  let total = 0;
  for (let current = walker.nextNode(); current !== null; current = walker.nextNode()) {
    const length = (current as Text).length;
    if (current === node) return total + Math.min(offset, length);
    if (node.nodeType !== Node.TEXT_NODE) {
      // An element boundary: count the text nodes that lie wholly before it.
      if (boundary === null) {
        boundary = document.createRange();
        boundary.setStart(node, offset);
        boundary.collapse(true);
      }
      if (boundary.comparePoint(current, 0) >= 0) return total;
    }
    total += length;
  }
  return node.nodeType === Node.TEXT_NODE ? null : total;
}

/** The DOM point (text node, offset) of text offset `offset` inside `root` (null when not drawn). */
export function pointAt(root: Node, offset: number): { node: Text; offset: number } | null {
  if (root instanceof Element && root.querySelector(BLOCK) !== null) {
    const blocks = [...root.querySelectorAll(BLOCK)];
    const block = blocks.find((candidate) => {
      const { start, end } = blockRange(candidate);
      return offset >= start && (offset < end || (offset === end && candidate === blocks.at(-1)));
    });
    return block === undefined ? null : flatPointAt(block, offset - blockRange(block).start);
  }
  return flatPointAt(root, offset);
}

function flatPointAt(root: Node, offset: number): { node: Text; offset: number } | null {
  const document = root.ownerDocument ?? globalThis.document;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let total = 0;
  let last: Text | null = null;
  for (let current = walker.nextNode(); current !== null; current = walker.nextNode()) {
    const text = current as Text;
    if (offset < total + text.length) return { node: text, offset: offset - total };
    total += text.length;
    last = text;
  }
  return last !== null && offset === total ? { node: last, offset: last.length } : null;
}

/**
 * The offset the user pointed at with a selection inside `root`: the first selected
 * character, or for a click (a collapsed selection) the character under the pointer.
 */
export function selectionOffset(
  root: HTMLElement,
  selection: Selection | null,
  pointer?: { x: number; y: number },
): { start: number; end: number } | null {
  if (selection === null || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  const start = textOffsetOf(root, range.startContainer, range.startOffset);
  if (start === null) return null;
  if (!range.collapsed) {
    const end = textOffsetOf(root, range.endContainer, range.endOffset);
    return { start, end: end ?? start + range.toString().length };
  }
  // A click puts the caret at the nearest boundary, which may be just after the character
  // that was clicked: take the character whose box holds the pointer.
  const at =
    pointer !== undefined &&
    !characterHolds(root, start, pointer) &&
    start > 0 &&
    characterHolds(root, start - 1, pointer)
      ? start - 1
      : start;
  return { start: at, end: at + 1 };
}

/**
 * The exact span of a selection that starts and ends inside `root` and is not empty, or null
 * (nothing selected, a caret, or a selection reaching outside: the browser's own copy then).
 */
export function selectedSpan(
  root: HTMLElement,
  selection: Selection | null,
): { start: number; end: number } | null {
  if (selection === null || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (range.collapsed) return null;
  const start = textOffsetOf(root, range.startContainer, range.startOffset);
  const end = textOffsetOf(root, range.endContainer, range.endOffset);
  return start === null || end === null || end <= start ? null : { start, end };
}

function characterHolds(root: Node, offset: number, pointer: { x: number; y: number }): boolean {
  const point = pointAt(root, offset);
  if (point === null || point.offset >= point.node.length) return false;
  const range = root.ownerDocument?.createRange();
  if (range === undefined) return false;
  range.setStart(point.node, point.offset);
  range.setEnd(point.node, point.offset + 1);
  for (const rect of range.getClientRects?.() ?? [])
    if (
      pointer.x >= rect.left &&
      pointer.x <= rect.right &&
      pointer.y >= rect.top &&
      pointer.y <= rect.bottom
    )
      return true;
  return false;
}
