import { memo } from "react";
import { buildSegments, type Decoration, type Segment, sameDecorations } from "./segments";
import type { Run } from "./wire-runs";

const HIGHLIGHT_CLASS = {
  hover: "rounded-[2px] bg-accent/30 box-decoration-clone",
  selected: "rounded-[2px] bg-info/30 box-decoration-clone",
} as const;
const ERROR_CLASS =
  "cursor-help underline decoration-danger decoration-wavy decoration-1 underline-offset-[3px] [text-decoration-skip-ink:none]";

interface WireLineProps {
  /** The line's text, "\n" included: every character is rendered, nothing else is. */
  text: string;
  /** Offset of the line's first character in the whole text. */
  start: number;
  runs: readonly Run[] | undefined;
  decorations: readonly Decoration[];
}

/**
 * One line of wire text, cut into segments by colour and decoration. Each rendered character
 * is one character of the text, so DOM offsets map 1:1 to text offsets. Memoised: a hover
 * re-renders only the lines its span touches.
 */
export const WireLine = memo(
  function WireLine({ text, start, runs, decorations }: WireLineProps) {
    const segments = buildSegments(start, start + text.length, runs, decorations);
    return <>{segments.map((segment) => renderSegment(text, start, segment))}</>;
  },
  (before, after) =>
    before.start === after.start &&
    before.runs === after.runs &&
    before.text === after.text &&
    sameDecorations(before.decorations, after.decorations),
);

function renderSegment(text: string, lineStart: number, segment: Segment) {
  const content = text.slice(segment.start - lineStart, segment.end - lineStart);
  const plain = segment.color === "" && segment.fontStyle === 0;
  if (plain && segment.highlight === undefined && segment.errors === undefined) return content;
  const classes = [
    segment.highlight === undefined ? "" : HIGHLIGHT_CLASS[segment.highlight],
    segment.errors === undefined ? "" : ERROR_CLASS,
    segment.errors !== undefined && segment.highlight === undefined ? "bg-danger/10" : "",
  ].join(" ");
  return (
    <span
      key={segment.start}
      className={classes.trim() || undefined}
      style={
        plain
          ? undefined
          : {
              color: segment.color || undefined,
              fontStyle: segment.fontStyle & 1 ? "italic" : undefined,
              fontWeight: segment.fontStyle & 2 ? 600 : undefined,
            }
      }
      data-span-highlight={segment.highlight}
      data-error-span={segment.errors === undefined ? undefined : ""}
      title={segment.errors?.join("\n")}
    >
      {content}
    </span>
  );
}
