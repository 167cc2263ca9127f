import { focusKind } from "@/components/shortcuts/focus-kind";

/**
 * Whether an Escape pressed now belongs to something else than the run: an open dialog, menu
 * or drawer (Escape closes it), or a field other than the message box (Escape cancels a
 * rename, clears a search). Asked before any of them handles the key: once one has closed,
 * the page no longer shows what the key was for.
 */
export function escapeClaimed(target: EventTarget | null): boolean {
  if (document.querySelector("[role=dialog], [role=menu], [data-drawer]") !== null) return true;
  if (target instanceof HTMLElement && target.id === "composer") return false;
  return focusKind(target) === "text";
}
