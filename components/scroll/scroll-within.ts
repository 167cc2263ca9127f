/**
 * Scrolls `item` to the nearest edge of `scroller` when it is outside it, as
 * `scrollIntoView({ block: "nearest" })` would, but moving only `scroller`: Chromium's
 * scrollIntoView also makes the item the page's starting point for Tab, so a list that showed
 * the open transcript as the page loaded sent the first Tab into the list, past the skip link
 * and the top bar. Setting `scrollTop` moves nothing else.
 */
export function scrollWithin(scroller: HTMLElement, item: HTMLElement): void {
  const view = scroller.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  if (box.top < view.top) scroller.scrollTop += box.top - view.top;
  else if (box.bottom > view.bottom)
    scroller.scrollTop += Math.min(box.bottom - view.bottom, box.top - view.top);
}
