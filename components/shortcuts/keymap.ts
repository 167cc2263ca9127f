import type { DebugTab } from "@/state/playground-store";

/** What a shortcut does. The runner switches over it exhaustively. */
export type ShortcutAction =
  | { kind: "help" }
  | { kind: "focus-composer" }
  | { kind: "play-pause" }
  | { kind: "step-event"; step: 1 | -1 }
  | { kind: "toggle-debug" }
  | { kind: "toggle-sidebar" }
  | { kind: "debug-tab"; tab: DebugTab }
  | { kind: "new-conversation" }
  | { kind: "fork" };

/** One row of the help overlay; `keys` are shown as written. */
export interface ShortcutHelp {
  keys: readonly string[];
  label: string;
}

/** The key → action table, single keys without modifiers (like GitHub's and Gmail's). */
const KEYS: Record<string, ShortcutAction> = {
  "?": { kind: "help" },
  "/": { kind: "focus-composer" },
  " ": { kind: "play-pause" },
  j: { kind: "step-event", step: 1 },
  k: { kind: "step-event", step: -1 },
  d: { kind: "toggle-debug" },
  t: { kind: "toggle-sidebar" },
  "1": { kind: "debug-tab", tab: "raw" },
  "2": { kind: "debug-tab", tab: "events" },
  "3": { kind: "debug-tab", tab: "chunks" },
  "4": { kind: "debug-tab", tab: "request" },
  n: { kind: "new-conversation" },
  f: { kind: "fork" },
};

export const SHORTCUT_HELP: readonly ShortcutHelp[] = [
  { keys: ["?"], label: "Show this help" },
  { keys: ["/"], label: "Type a message (focus the composer)" },
  { keys: ["Enter"], label: "Send (in the composer); select the focused card" },
  { keys: ["Esc"], label: "Stop the run; close a dialog, drawer or menu" },
  { keys: ["Space"], label: "Play or pause the replay" },
  { keys: ["J", "K"], label: "Next / previous event in the timeline" },
  { keys: ["F"], label: "Fork at the selected event" },
  { keys: ["D"], label: "Show or hide the debug panel" },
  { keys: ["1", "2", "3", "4"], label: "Debug tab: Raw, Events, Chunks, Request" },
  { keys: ["T"], label: "Show or hide the transcripts" },
  { keys: ["N"], label: "New conversation" },
  { keys: ["Ctrl+Z"], label: "A notice's action (Undo a deletion) while it shows" },
];

/** What the focus is on when a key is pressed: shortcuts stay out of the way of typing. */
export type FocusKind = "text" | "control" | "dialog" | "other";

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The key repeats while held. */
  repeat: boolean;
  focus: FocusKind;
}

/**
 * The action for a key press, or null to let the browser have it: never while typing in a
 * field or inside a dialog, never with Ctrl/Cmd/Alt (browser shortcuts), and Space only when
 * it would not press a focused button.
 */
export function actionFor(press: KeyPress): ShortcutAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.focus === "text" || press.focus === "dialog") return null;
  const action = KEYS[press.key.length === 1 ? press.key.toLowerCase() : press.key];
  if (action === undefined) return null;
  if (action.kind === "play-pause" && press.focus === "control") return null;
  if (press.repeat && action.kind !== "step-event") return null;
  return action;
}

/** The id `step` places from `current` in `ids` (the first or last when nothing is selected). */
export function stepId(
  ids: readonly string[],
  current: string | null,
  step: 1 | -1,
): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at === -1) return (step === 1 ? ids[0] : ids[ids.length - 1]) ?? null;
  return ids[Math.min(ids.length - 1, Math.max(0, at + step))] ?? null;
}
