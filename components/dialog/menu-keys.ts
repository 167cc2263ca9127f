"use client";

import { type KeyboardEvent, type RefObject, useEffect } from "react";

/** What the arrow keys move between in a menu: its items, checkboxes too, not disabled ones. */
const ITEMS =
  ':is([role="menuitem"], [role="menuitemcheckbox"], [role="menuitemradio"]):not(:disabled)';

function itemsOf(menu: Element | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
}

/**
 * A menu's own keys (the ARIA menu pattern), for its `role="menu"` element: ArrowDown and
 * ArrowUp move to the next and the previous item, round the ends; Home and End to the first
 * and the last. Tab still leaves it, and Escape closes it (`useDismiss`).
 */
export function onMenuKeyDown(key: KeyboardEvent<HTMLElement>): void {
  const items = itemsOf(key.currentTarget);
  if (items.length === 0) return;
  const at = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  if (key.key === "ArrowDown") next = (at + 1) % items.length;
  else if (key.key === "ArrowUp") next = at <= 0 ? items.length - 1 : at - 1;
  else if (key.key === "Home") next = 0;
  else if (key.key === "End") next = items.length - 1;
  else return;
  key.preventDefault();
  items[next]?.focus();
}

/**
 * An open menu takes the focus on its first item. Opened from the keyboard, it stayed on the
 * menu's button, where the arrow keys did nothing and a screen reader heard of no menu.
 */
export function useFocusFirstItem(open: boolean, menu: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (open) itemsOf(menu.current)[0]?.focus();
  }, [open, menu]);
}

/** ArrowDown on a menu's button opens it, as Enter and Space do. */
export function opensOnArrowDown(key: KeyboardEvent<HTMLElement>, open: () => void): void {
  if (key.key !== "ArrowDown") return;
  key.preventDefault();
  open();
}
