/**
 * A modal dialog's Tab order wraps inside it: Tab from its last control goes to the first,
 * Shift+Tab from the first to the last (unchecked radios are skipped, as the browser does).
 */
export function keepFocusIn(
  dialog: HTMLElement | null,
  key: Pick<KeyboardEvent, "key" | "shiftKey" | "preventDefault">,
): void {
  if (key.key !== "Tab") return;
  const controls = [
    ...(dialog?.querySelectorAll<HTMLElement>(
      "input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled), a[href]",
    ) ?? []),
  ].filter(
    (control) =>
      !(control instanceof HTMLInputElement && control.type === "radio" && !control.checked),
  );
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (first === undefined || last === undefined) return;
  if (key.shiftKey && document.activeElement === first) {
    key.preventDefault();
    last.focus();
  } else if (!key.shiftKey && document.activeElement === last) {
    key.preventDefault();
    first.focus();
  }
}
