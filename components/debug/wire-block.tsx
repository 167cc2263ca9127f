import { memo, useContext, useEffect, useRef, useState } from "react";
import { BlockWindowContext, holdsSelection } from "./block-window";
import { type Decoration, sameDecorations } from "./segments";
import { WireLine } from "./wire-line";
import type { Run } from "./wire-runs";

const NO_DECORATIONS: readonly Decoration[] = [];
/** The raw view's line height (`leading-5`): the size a block is assumed to take unseen. */
const LINE_PX = 20;
const SKIP_OFF_SCREEN = { contentVisibility: "auto" } as const;
/**
 * A real line: its number is drawn in the gutter (the text element's left padding, sized by
 * `--gutter`) by a pseudo-element, so it is no text of the DOM and offsets stay exact. A soft
 * wrap continues under the text, not under a number: that is how it differs from a newline.
 */
const LINE_CLASS =
  "relative pl-[var(--gutter)] before:pointer-events-none before:absolute before:left-0 before:w-[calc(var(--gutter)-1ch)] before:text-right before:text-fg-subtle before:opacity-70 before:select-none before:content-[attr(data-line)_/_'']";

interface WireBlockProps {
  /** Whole lines of the text, "\n" included. */
  text: string;
  /** Offset of the block's first character in the whole text. */
  start: number;
  /** The runs of each line of the block, in order (undefined: not tokenized yet). */
  runs: readonly (readonly Run[] | undefined)[];
  /** Decorations touching the block. */
  decorations: readonly Decoration[];
  /** The number of the block's first line (from 1) when real lines are numbered. */
  firstLine?: number;
  /** Spaces, tabs and line breaks drawn as symbols. */
  whitespace?: boolean;
  /** Called when the block comes near the screen (its turn then tokenizes). */
  onShown?: () => void;
}

/**
 * A group of lines in its own block box. While a turn streams only its last block changes, so
 * the browser re-lays out that block instead of the whole turn, and React compares one block
 * instead of every line. Blocks end at line breaks, so they render exactly like one text.
 * Inside the Raw view only blocks near the screen are drawn (`BlockWindow`): the others are
 * empty boxes of their last real height (or one line height per line), carrying their offsets
 * (`data-block-start`, `data-block-end`) so DOM points still map to exact text offsets. A
 * block that holds an end of the selection stays drawn, so a selection can reach across text
 * that is not drawn, and copying it copies the raw text between its ends.
 */
export const WireBlock = memo(
  function WireBlock(props: WireBlockProps) {
    const { text, start, runs, decorations, firstLine, whitespace, onShown } = props;
    const blockWindow = useContext(BlockWindowContext);
    const windowed = blockWindow?.windowed === true;
    const ref = useRef<HTMLDivElement>(null);
    const [shown, setShown] = useState(!windowed);
    const height = useRef<number | null>(null);
    const shownCallback = useRef(onShown);
    shownCallback.current = onShown;

    useEffect(() => {
      const element = ref.current;
      if (!windowed || element === null || blockWindow === null) return;
      return blockWindow.observe(element, (near, measured) => {
        if (near) {
          setShown(true);
          shownCallback.current?.();
          return;
        }
        if (holdsSelection(element)) return;
        if (measured > 0) height.current = measured;
        setShown(false);
      });
    }, [blockWindow, windowed]);

    const end = start + text.length;
    if (!shown)
      return (
        <div
          ref={ref}
          data-block-start={start}
          data-block-end={end}
          style={{ height: height.current ?? runs.length * LINE_PX }}
        />
      );
    const lines = [];
    let lineStart = 0;
    for (let index = 0; lineStart < text.length; index++) {
      const lineBreak = text.indexOf("\n", lineStart);
      const lineEnd = lineBreak === -1 ? text.length : lineBreak + 1;
      const from = start + lineStart;
      const to = start + lineEnd;
      const touching = decorations.filter((item) => item.start < to && item.end > from);
      const line = (
        <WireLine
          key={lineStart}
          text={text.slice(lineStart, lineEnd)}
          start={from}
          runs={runs[index]}
          decorations={touching.length === 0 ? NO_DECORATIONS : touching}
          whitespace={whitespace}
        />
      );
      lines.push(
        firstLine === undefined ? (
          line
        ) : (
          <div key={lineStart} data-line={firstLine + index} className={LINE_CLASS}>
            {line}
          </div>
        ),
      );
      lineStart = lineEnd;
    }
    // Off-screen blocks skip layout and paint (where no `BlockWindow` leaves them out).
    return (
      <div
        ref={ref}
        data-block-start={start}
        data-block-end={end}
        style={{ ...SKIP_OFF_SCREEN, containIntrinsicSize: `auto ${lines.length * LINE_PX}px` }}
      >
        {lines}
      </div>
    );
  },
  (before, after) =>
    before.start === after.start &&
    before.firstLine === after.firstLine &&
    before.whitespace === after.whitespace &&
    before.text === after.text &&
    before.runs.length === after.runs.length &&
    before.runs.every((runs, index) => runs === after.runs[index]) &&
    sameDecorations(before.decorations, after.decorations),
);
