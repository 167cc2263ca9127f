import type { FocusKind } from "./keymap";

const CONTROL_ROLES = new Set([
  "button",
  "link",
  "slider",
  "tab",
  "checkbox",
  "radio",
  "menuitem",
  "option",
  "switch",
  "separator",
]);

/** Where a key press lands, for `actionFor`: typing, a control, inside a dialog, or elsewhere. */
export function focusKind(target: EventTarget | null): FocusKind {
  if (!(target instanceof HTMLElement)) return "other";
  if (target.closest("[role=dialog]") !== null) return "dialog";
  if (target.isContentEditable) return "text";
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return "text";
  if (tag === "INPUT") {
    const type = (target as HTMLInputElement).type;
    return ["checkbox", "radio", "button", "submit", "range"].includes(type) ? "control" : "text";
  }
  if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return "control";
  const role = target.getAttribute("role");
  return role !== null && CONTROL_ROLES.has(role) ? "control" : "other";
}
