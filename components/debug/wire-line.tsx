import { Fragment, memo, type ReactNode } from "react";
import { hasBidiControl, isolateBidiControls } from "./bidi-controls";
import { buildSegments, type Decoration, type Segment, sameDecorations } from "./segments";
import { markWhitespace } from "./visible-whitespace";
import type { Run } from "./wire-runs";

/** Lighter in the light theme, where /30 took the syntax colours below 4.5:1. */
const HIGHLIGHT_CLASS = {
  hover: "rounded-[2px] bg-accent/30 light:bg-accent/15 box-decoration-clone",
  selected: "rounded-[2px] bg-info/30 light:bg-info/15 box-decoration-clone",
} as const;
const ERROR_CLASS =
  "cursor-help underline decoration-danger decoration-wavy decoration-1 underline-offset-[3px] [text-decoration-skip-ink:none]";
/**
 * A whitespace run keeps its own characters (so offsets, selection and copy are untouched) and
 * shows its symbols in a pseudo-element laid over it: generated content is not text in the
 * DOM, cannot be selected, and its alternative text ("") keeps screen readers off it.
 */
const WHITESPACE_CLASS =
  "relative before:pointer-events-none before:absolute before:top-0 before:left-0 before:text-fg-subtle before:opacity-80 before:content-[attr(data-ws)_/_'']";

interface WireLineProps {
  /** The line's text, "\n" included: every character is rendered, nothing else is. */
  text: string;
  /** Offset of the line's first character in the whole text. */
  start: number;
  runs: readonly Run[] | undefined;
  decorations: readonly Decoration[];
  /** Draw spaces, tabs and line breaks as symbols (over the characters, not instead of them). */
  whitespace?: boolean;
}

/**
 * One line of wire text, cut into segments by colour and decoration. Each rendered character
 * is one character of the text, so DOM offsets map 1:1 to text offsets; bidi controls are
 * isolated, so the line is drawn in the order it was written. Memoised: a hover re-renders
 * only the lines its span touches.
 */
export const WireLine = memo(
  function WireLine({ text, start, runs, decorations, whitespace = false }: WireLineProps) {
    const segments = buildSegments(start, start + text.length, runs, decorations);
    return <>{segments.map((segment) => renderSegment(text, start, segment, whitespace))}</>;
  },
  (before, after) =>
    before.start === after.start &&
    before.whitespace === after.whitespace &&
    before.runs === after.runs &&
    before.text === after.text &&
    sameDecorations(before.decorations, after.decorations),
);

function renderSegment(text: string, lineStart: number, segment: Segment, whitespace: boolean) {
  const slice = text.slice(segment.start - lineStart, segment.end - lineStart);
  const marked = (piece: string) => (whitespace ? markedText(piece) : piece);
  const content = hasBidiControl(slice)
    ? isolateBidiControls(slice, marked, whitespace)
    : marked(slice);
  const plain = segment.color === "" && segment.fontStyle === 0;
  if (plain && segment.highlight === undefined && segment.errors === undefined)
    return typeof content === "string" ? (
      content
    ) : (
      <Fragment key={segment.start}>{content}</Fragment>
    );
  const classes = [
    segment.highlight === undefined ? "" : HIGHLIGHT_CLASS[segment.highlight],
    segment.errors === undefined ? "" : ERROR_CLASS,
    // Light: no tint (the wavy underline marks it), which took the syntax colours below 4.5:1.
    segment.errors !== undefined && segment.highlight === undefined
      ? "bg-danger/10 light:bg-transparent"
      : "",
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

/** The text with each whitespace run wrapped so its symbols can be drawn over it. */
function markedText(text: string): ReactNode[] | string {
  const parts = markWhitespace(text);
  if (parts.length === 1 && parts[0]?.glyph === null) return text;
  let offset = 0;
  return parts.map((part) => {
    const key = offset;
    offset += part.text.length;
    return part.glyph === null ? (
      part.text
    ) : (
      <span key={key} data-ws={part.glyph} className={WHITESPACE_CLASS}>
        {part.text}
      </span>
    );
  });
}
