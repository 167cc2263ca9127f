"use client";

import { type RefObject, useEffect } from "react";

/**
 * Closes a popover on Escape or on a press outside `root` while `open`. An Escape pressed with
 * the focus inside the popover gives the focus back to its button (the one in `root` with
 * `aria-expanded`): the control that had it is about to go, and the focus with it, to the
 * page's start. A press outside leaves the focus where the user put it.
 */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: () => void,
): void {
  useEffect(() => {
    if (!open) return;
    const onEvent = (event: Event) => {
      const outside = !root.current?.contains(event.target as Node);
      if (!(event instanceof KeyboardEvent)) {
        if (outside) close();
        return;
      }
      if (event.key !== "Escape") return;
      const focusInside = root.current?.contains(document.activeElement) === true;
      close();
      if (focusInside) root.current?.querySelector<HTMLElement>("[aria-expanded]")?.focus();
    };
    document.addEventListener("mousedown", onEvent);
    document.addEventListener("keydown", onEvent);
    return () => {
      document.removeEventListener("mousedown", onEvent);
      document.removeEventListener("keydown", onEvent);
    };
  }, [open, root, close]);
}
