/**
 * Where the playground's three regions go at a given window width: the transcripts sidebar
 * and the debug panel sit beside the conversation while it keeps `MIN_CONVERSATION` px, and
 * become drawers over it when they would squeeze it narrower. Pure, so the rules are tested
 * without a browser.
 */

/** The narrowest the conversation column (and the composer in it) may get, px. */
export const MIN_CONVERSATION = 480;
export const SIDEBAR_WIDTH = 256;
/**
 * The sidebar is a convenience: it sits inline only while the conversation keeps this much
 * beside it (so on a 768–900 px laptop split the conversation gets the window).
 */
export const MIN_CONVERSATION_BESIDE_SIDEBAR = 600;
export const MIN_DEBUG = 340;
/** The widest share of the window the debug panel may take. */
export const MAX_DEBUG_SHARE = 0.7;
export const DEFAULT_DEBUG_SHARE = 0.36;

export type Placement = "inline" | "drawer";

export interface LayoutInput {
  /** Window width, px. */
  width: number;
  /** The debug panel's preferred width as a share of the window. */
  debugShare: number;
  /** The sidebar is wanted; when inline it takes room from the debug panel's allowance. */
  sidebarOpen: boolean;
}

export interface Layout {
  sidebar: Placement;
  debug: Placement;
  /** The debug panel's width, px: beside the conversation, or as a drawer. */
  debugWidth: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The debug panel goes inline when the window holds it at its minimum beside the conversation
 * at its minimum; the sidebar goes inline when it fits beside both with room to spare. The debug width follows
 * the user's share, within the room left.
 */
export function planLayout({ width, debugShare, sidebarOpen }: LayoutInput): Layout {
  const debug: Placement = width - MIN_DEBUG >= MIN_CONVERSATION ? "inline" : "drawer";
  const besideDebug = debug === "inline" ? MIN_DEBUG : 0;
  const sidebar: Placement =
    width - SIDEBAR_WIDTH - besideDebug >= MIN_CONVERSATION_BESIDE_SIDEBAR ? "inline" : "drawer";
  if (debug === "drawer") {
    return { sidebar, debug, debugWidth: Math.round(Math.min(width - 32, 560)) };
  }
  const room = width - MIN_CONVERSATION - (sidebarOpen && sidebar === "inline" ? SIDEBAR_WIDTH : 0);
  const wanted = clamp(debugShare, 0.1, MAX_DEBUG_SHARE) * width;
  return { sidebar, debug, debugWidth: Math.round(clamp(wanted, MIN_DEBUG, room)) };
}

/** The share to remember for a width the user dragged the panel to. */
export function shareOf(debugWidth: number, width: number): number {
  if (width <= 0) return DEFAULT_DEBUG_SHARE;
  return clamp(debugWidth / width, 0.1, MAX_DEBUG_SHARE);
}
