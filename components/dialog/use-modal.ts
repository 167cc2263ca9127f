"use client";

import { type RefObject, useEffect, useRef } from "react";
import { keepFocusIn } from "./keep-focus-in";

/**
 * What a modal dialog does for the keyboard: on open the focus moves into it (`first`, a
 * selector, else its first control), Tab and Shift+Tab wrap inside it, Escape closes it
 * wherever the focus is (a dialog opened from the top bar otherwise left the focus behind it,
 * where Escape did nothing and Tab walked the page under the backdrop), and on close the focus
 * goes back to what had it before, the button that opened it.
 */
export function useModal(
  dialog: RefObject<HTMLElement | null>,
  onClose: () => void,
  first?: string,
): void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const start = () =>
      (first === undefined ? null : dialog.current?.querySelector<HTMLElement>(first)) ??
      dialog.current?.querySelector<HTMLElement>(CONTROLS);
    start()?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.key === "Escape") {
        event.preventDefault();
        close.current();
      } else if (event.key === "Tab" && !dialog.current?.contains(document.activeElement)) {
        // A press on the backdrop left the focus on the page: Tab goes back into the dialog.
        event.preventDefault();
        start()?.focus();
      } else keepFocusIn(dialog.current, event);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, [dialog, first]);
}

const CONTROLS =
  "input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled), a[href]";
