"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useStickToBottom } from "@/components/scroll/use-stick-to-bottom";
import { OlderRecords, useLoadOlderNearTop } from "@/components/timeline/older-records";
import { useFrameVersion } from "@/hooks/use-frame-version";
import type { RunLog, TurnLog } from "@/lib/client/run-log";
import { cutTitle } from "@/lib/store/meta";
import { type PlaygroundState, usePlayground } from "@/state/playground-store";
import { hasBidiControl, isolateBidiControls } from "./bidi-controls";
import { BlockWindow, BlockWindowContext } from "./block-window";
import { eventForPick, linkedSpan } from "./linked-span";
import { RawTurn } from "./raw-turn";
import type { Decoration } from "./segments";
import { type TurnUser, type TurnUsers, updateTurnUsers } from "./turn-users";
import { wirePaletteStyle } from "./wire-theme";

const NO_ERRORS: readonly Decoration[] = [];
/** How long the pointer rests on a card before an off-screen span scrolls into view. */
const HOVER_DWELL_MS = 250;
/** Time for a block brought on screen to be drawn (an observer report and a render). */
const REDRAWN_MS = 120;

/**
 * Where the user last scrolled Raw to near its top: the first turn on screen and how far below
 * the view's top edge it was. Older records put in front make a new log, and the view is drawn
 * afresh for it: without this it opened at the newest turn again, so scrolling up through a
 * long conversation went back to its end at every page (found from outside, 120 runs).
 */
let lastPlace: { transcriptId: string; firstSeq: number; turn: number; offset: number } | null =
  null;
/** Only near the top can older records come in front (`useLoadOlderNearTop`), px. */
const NEAR_TOP_PX = 800;

/** The open transcript's first loaded record, while it is only shown (no run, no replay). */
function shownFrom(state: PlaygroundState): { transcriptId: string; firstSeq: number } | null {
  const { transcript, transcriptId, status, replaying } = state;
  const firstSeq = transcript?.records[0]?.seq;
  if (transcriptId === null || transcript?.meta.id !== transcriptId || firstSeq === undefined)
    return null;
  if (replaying || status === "running" || status === "stopping") return null;
  return { transcriptId, firstSeq };
}

/** The place to open at, when older records came in front of where the user was. */
function placeToResume(): { turn: number; offset: number } | null {
  const shown = shownFrom(usePlayground.getState());
  if (lastPlace === null || shown === null) return null;
  if (shown.transcriptId !== lastPlace.transcriptId || shown.firstSeq >= lastPlace.firstSeq)
    return null;
  return lastPlace;
}

/** The first turn on screen and its offset from the view's top edge (a few sections read). */
function firstOnScreen(element: HTMLElement): { turn: number; offset: number } | null {
  const top = element.getBoundingClientRect().top;
  for (const section of element.querySelectorAll<HTMLElement>("[data-raw-turn]")) {
    const box = section.getBoundingClientRect();
    if (box.bottom > top) return { turn: Number(section.dataset.rawTurn), offset: box.top - top };
  }
  return null;
}

/**
 * Raw: each model turn's wire text exactly as received, in order, growing live. The event
 * under the pointer (or else the selected one) is drawn on its span; a click or a selection
 * in the text selects the event that owns it; error spans are always marked. `log` is the
 * one to draw when the caller holds it back (the debug panel draws a new log after the
 * timeline has painted it); else the store's.
 */
export function RawView({ log: given }: { log?: RunLog } = {}) {
  useFrameVersion();
  const current = usePlayground((state) => state.log);
  const log = given ?? current;
  const hoveredId = usePlayground((state) => state.hoveredId);
  const selectedId = usePlayground((state) => state.selectedId);
  const running = usePlayground((state) => state.status === "running");
  const theme = usePlayground((state) => state.theme);
  const whitespace = usePlayground((state) => state.rawWhitespace);
  // A long transcript opens from its newest records: counting the user messages loaded would
  // number them wrongly (the 694th message shown as "user message 93"), so no number then.
  const partial = usePlayground((state) => (state.transcript?.records[0]?.seq ?? 1) > 1);
  const errorCache = useRef(new Map<number, { count: number; errors: readonly Decoration[] }>());
  const turnUsers = useRef<TurnUsers | null>(null);
  turnUsers.current = updateTurnUsers(turnUsers.current, log);
  const users = turnUsers.current.turns;
  const scroller = useRef<HTMLDivElement>(null);
  const [blockWindow] = useState(() => new BlockWindow());
  const attach = useCallback(
    (element: HTMLDivElement | null) => {
      scroller.current = element;
      blockWindow.attach(element);
    },
    [blockWindow],
  );
  const [resume] = useState(placeToResume);
  const stick = useStickToBottom(scroller, { startStuck: resume === null, watchChildren: true });
  // After each render (a chunk came, a block drew its lines), in the next frame.
  useEffect(stick.followInFrame);
  useLoadOlderNearTop(scroller);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only where the view opens
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null || resume === null) return;
    const section = element.querySelector(`[data-raw-turn="${resume.turn}"]`);
    if (section === null) return;
    const top = element.getBoundingClientRect().top;
    element.scrollTop += section.getBoundingClientRect().top - top - resume.offset;
  }, []);
  const onScroll = () => {
    const element = scroller.current;
    const shown = shownFrom(usePlayground.getState());
    if (element === null || shown === null) return;
    const place = element.scrollTop <= NEAR_TOP_PX ? firstOnScreen(element) : null;
    lastPlace = place === null ? null : { ...shown, ...place };
  };

  const hovered = linkedSpan(log, hoveredId);
  const active = hovered ?? linkedSpan(log, selectedId);
  const activeKind = hovered === undefined || hoveredId === selectedId ? "selected" : "hover";

  const onPick = useCallback((turn: number, pick: { start: number; end: number }) => {
    const state = usePlayground.getState();
    const event = eventForPick(state.log, turn, pick);
    state.select(event?.id ?? null, turn);
  }, []);

  // Bring the selected span into view, unless some of it is already on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the selection changes
  useEffect(() => {
    const container = scroller.current;
    if (container !== null) bringIntoView(container, "selected", linkedSpan(log, selectedId));
  }, [selectedId]);

  // A hovered card whose span is off screen here: after a short dwell (so sweeping the
  // pointer over cards does not shake this view), bring the span into view.
  useEffect(() => {
    if (hoveredId === null) return;
    const timer = setTimeout(() => {
      const container = scroller.current;
      const state = usePlayground.getState();
      if (container !== null) bringIntoView(container, "hover", linkedSpan(state.log, hoveredId));
    }, HOVER_DWELL_MS);
    return () => clearTimeout(timer);
  }, [hoveredId]);

  const turns = [...log.turns.values()];
  const lastTurn = turns[turns.length - 1]?.turn;
  const errorsOf = (turn: TurnLog) => cachedErrors(log, turn, errorCache.current);

  return (
    <div
      ref={attach}
      onScroll={onScroll}
      // A tab stop, so keys scroll it in every browser (its text holds no control to focus).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard
      tabIndex={0}
      className="min-h-0 flex-1 overflow-auto bg-wire-bg focus-visible:-outline-offset-2"
      style={wirePaletteStyle(theme)}
      data-testid="raw-view"
    >
      <OlderRecords focusWhenGone={() => scroller.current} />
      <BlockWindowContext.Provider value={blockWindow}>
        {turns.length === 0 ? (
          <p className="p-4 text-xs text-fg-subtle">
            The model's raw output appears here, turn by turn, exactly as it streams in.
          </p>
        ) : (
          turns.map((turn, position) => {
            const here = active?.turn === turn.turn ? active.span : null;
            const user = users.get(turn.turn);
            const before = position === 0 ? undefined : users.get(turns[position - 1]?.turn ?? -1);
            const boundary =
              user !== undefined && (position === 0 || before?.index !== user.index) ? (
                <UserBoundary key={`user-${turn.turn}`} user={user} numbered={!partial} />
              ) : null;
            return [
              boundary,
              <RawTurn
                key={turn.turn}
                turn={turn.turn}
                raw={turn.raw}
                chunkCount={turn.chunks.length}
                highlightStart={here?.start ?? null}
                highlightEnd={here?.end ?? null}
                highlightKind={activeKind}
                errors={errorsOf(turn)}
                streaming={running && turn.turn === lastTurn}
                whitespace={whitespace}
                onPick={onPick}
              />,
            ];
          })
        )}
      </BlockWindowContext.Provider>
    </div>
  );
}

/**
 * Scrolls a linked span into view unless some of it is on screen. Its lines may not be drawn
 * (far off screen): then the block that holds its start is brought in, and draws as it comes.
 */
function bringIntoView(
  container: HTMLElement,
  kind: "selected" | "hover",
  span: { turn: number; span: { start: number } } | undefined,
): void {
  let target = container.querySelector<HTMLElement>(`[data-span-highlight="${kind}"]`);
  if (target === null && span !== undefined) {
    const section = container.querySelector(`[data-raw-turn="${span.turn}"]`);
    for (const block of section?.querySelectorAll<HTMLElement>("[data-block-start]") ?? []) {
      const { blockStart, blockEnd } = block.dataset;
      if (span.span.start >= Number(blockStart) && span.span.start < Number(blockEnd)) {
        target = block;
        break;
      }
    }
  }
  if (target === null) return;
  const box = container.getBoundingClientRect();
  const rect = target.getBoundingClientRect();
  if (rect.bottom < box.top + 28 || rect.top > box.bottom)
    target.scrollIntoView({ block: "center" });
  // A block not drawn yet: once it is (a frame or two later), centre the span itself.
  if (!target.hasAttribute("data-span-highlight"))
    setTimeout(() => {
      const drawn = container.querySelector<HTMLElement>(`[data-span-highlight="${kind}"]`);
      drawn?.scrollIntoView({ block: "center" });
    }, REDRAWN_MS);
}

/** Where the turns answering another user message begin: outside the raw text, so offsets hold. */
function UserBoundary({ user, numbered }: { user: TurnUser; numbered: boolean }) {
  // Cut by graphemes: never half an emoji (shown as U+FFFD) or of a joined one.
  const line = cutTitle(user.content.trim().split("\n")[0] ?? "", 80);
  return (
    <div
      data-raw-user-boundary={user.index}
      className="border-t-2 border-accent/60 bg-surface-2 px-3 py-1 font-mono text-[11px] text-fg-muted"
    >
      <span className="font-medium text-accent">
        {numbered ? `user message ${user.index}` : "user message"}
      </span>{" "}
      {/* Isolated like the wire text: an RLO in the message would draw it backwards here. */}
      <span className="text-fg-subtle">
        {hasBidiControl(line) ? isolateBidiControls(line, (piece) => piece) : line}
      </span>
    </div>
  );
}

/** Error spans of a turn, recomputed only when the turn gains events (errors never change). */
function cachedErrors(
  log: RunLog,
  turn: TurnLog,
  cache: Map<number, { count: number; errors: readonly Decoration[] }>,
): readonly Decoration[] {
  const cached = cache.get(turn.turn);
  if (cached !== undefined && cached.count === turn.events.length) return cached.errors;
  const errors: Decoration[] = [];
  for (const id of turn.events) {
    const event = log.get(id);
    if (event?.type !== "error" || event.span === undefined) continue;
    const { start, end } = event.span;
    // An empty span still gets one character, so that no error goes unmarked.
    const title = `${event.code}: ${event.message}`;
    errors.push({ kind: "error", start, end: Math.max(end, start + 1), title });
  }
  const result = errors.length === 0 ? NO_ERRORS : errors;
  cache.set(turn.turn, { count: turn.events.length, errors: result });
  return result;
}
