/**
 * jsdom lays nothing out: elements measure 0×0, so a virtual list shows no rows. Tests of
 * virtualized views give every element a viewport-sized box instead.
 */
export function stubLayout(width = 480, height = 800): void {
  Object.defineProperty(HTMLElement.prototype, "clientWidth", {
    configurable: true,
    get: () => width,
  });
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get: () => height,
  });
  Element.prototype.scrollIntoView ??= () => undefined;
}
