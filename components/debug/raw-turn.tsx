"use client";

import {
  type ClipboardEvent,
  type CSSProperties,
  type MouseEvent,
  memo,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from "react";
import { BlockWindowContext } from "./block-window";
import { selectedSpan, selectionOffset } from "./dom-offset";
import { formatCount } from "./format-count";
import { LineIndex } from "./line-index";
import type { Decoration, HighlightKind } from "./segments";
import { useWireTokens } from "./use-wire-tokens";
import { WireBlock } from "./wire-block";

/** Lines per block: small enough that re-laying out the growing block is cheap. */
const BLOCK_LINES = 32;

export interface RawTurnProps {
  turn: number;
  raw: string;
  chunkCount: number;
  /** The linked event's span, when it is in this turn (primitives, so memo holds). */
  highlightStart: number | null;
  highlightEnd: number | null;
  highlightKind: HighlightKind;
  /** Error spans of this turn: always marked. */
  errors: readonly Decoration[];
  streaming: boolean;
  /** Spaces, tabs and line breaks drawn as symbols over the text. */
  whitespace: boolean;
  onPick(turn: number, pick: { start: number; end: number }): void;
}

/** One model turn's raw text exactly as received, highlighted, with linked spans drawn on it. */
export const RawTurn = memo(function RawTurn(props: RawTurnProps) {
  const { turn, raw, chunkCount, errors, streaming, whitespace, onPick } = props;
  const { highlightStart, highlightEnd, highlightKind } = props;
  // A turn far off screen is tokenized once one of its blocks comes near.
  const windowed = useContext(BlockWindowContext)?.windowed === true;
  const [near, setNear] = useState(false);
  const onShown = useCallback(() => setNear(true), []);
  const tokens = useWireTokens(raw, near || !windowed);
  const lineIndex = useRef(new LineIndex());
  const starts = lineIndex.current.update(raw);
  const textRef = useRef<HTMLDivElement>(null);

  const decorations = useMemo(() => {
    if (highlightStart === null || highlightEnd === null) return errors;
    const highlight: Decoration = {
      kind: "highlight",
      start: highlightStart,
      end: highlightEnd,
      highlight: highlightKind,
    };
    return [...errors, highlight];
  }, [errors, highlightStart, highlightEnd, highlightKind]);

  const onMouseUp = (event: MouseEvent<HTMLDivElement>) => {
    if (event.button !== 0 || textRef.current === null) return;
    const pick = selectionOffset(textRef.current, window.getSelection(), {
      x: event.clientX,
      y: event.clientY,
    });
    if (pick !== null) onPick(turn, pick);
  };

  // Lines are blocks (for the gutter), and a browser copying blocks adds a line break after
  // each one on top of the text's own: copy the selected raw text itself instead.
  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (textRef.current === null) return;
    const span = selectedSpan(textRef.current, window.getSelection());
    if (span === null) return;
    event.clipboardData.setData("text/plain", raw.slice(span.start, span.end));
    event.preventDefault();
  };

  const blocks = [];
  for (let first = 0; first < starts.length; first += BLOCK_LINES) {
    const last = Math.min(first + BLOCK_LINES, starts.length);
    const start = starts[first] as number;
    const end = starts[last] ?? raw.length;
    if (end <= start) continue;
    const runs = [];
    for (let line = first; line < last; line++) runs.push(tokens?.runsOf(line));
    blocks.push(
      <WireBlock
        key={start}
        text={raw.slice(start, end)}
        start={start}
        runs={runs}
        decorations={decorations.filter((item) => item.start < end && item.end > start)}
        firstLine={first + 1}
        whitespace={whitespace}
        onShown={onShown}
      />,
    );
  }

  return (
    <section data-raw-turn={turn} className="border-b border-border last:border-b-0">
      <header className="sticky top-0 z-10 flex items-center gap-2 border-b border-border/60 bg-surface px-3 py-1 font-mono text-[11px] text-fg-subtle">
        <span className="font-medium text-fg-muted">turn {turn}</span>
        <span>{formatCount(raw.length)} chars</span>
        <span>
          {formatCount(chunkCount)} chunk{chunkCount === 1 ? "" : "s"}
        </span>
        {errors.length > 0 ? (
          <span className="text-danger">
            {errors.length} error{errors.length === 1 ? "" : "s"}
          </span>
        ) : null}
        {streaming ? (
          <span className="ml-auto flex items-center gap-1 text-accent">
            <span className="size-1.5 animate-pulse rounded-full bg-accent" />
            streaming
          </span>
        ) : null}
      </header>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the Events tab is the keyboard path */}
      <div
        ref={textRef}
        data-raw-text=""
        data-raw-whitespace={whitespace ? "" : undefined}
        onMouseUp={onMouseUp}
        onCopy={onCopy}
        className="cursor-text px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap [overflow-wrap:anywhere] [tab-size:2]"
        style={{ color: "var(--wire-fg)", "--gutter": gutterWidth(starts.length) } as CSSProperties}
      >
        {blocks}
      </div>
    </section>
  );
});

/** Room for the largest line number and a space: the numbers line up, right-aligned. */
function gutterWidth(lines: number): string {
  return `${String(lines).length + 1}ch`;
}
