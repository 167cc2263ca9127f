import { hasBidiControl, isolateBidiControls } from "./bidi-controls";

/** What each whitespace character is drawn as, in the Chunks view and in Raw's whitespace mode. */
const SYMBOLS: Record<string, string> = { " ": "·", "\n": "↵", "\t": "→", "\r": "␍" };

export interface WhitespacePart {
  text: string;
  whitespace: boolean;
}

/** Splits text into runs of ordinary characters and runs of visible whitespace symbols. */
export function visibleWhitespace(text: string): WhitespacePart[] {
  const parts: WhitespacePart[] = [];
  for (const character of text) {
    const symbol = SYMBOLS[character];
    const whitespace = symbol !== undefined;
    const shown = symbol ?? character;
    const last = parts[parts.length - 1];
    if (last !== undefined && last.whitespace === whitespace) last.text += shown;
    else parts.push({ text: shown, whitespace });
  }
  return parts;
}

/** A stretch of text kept as it is, with the symbols to draw over it when it is whitespace. */
export interface MarkedPart {
  /** The original characters, unchanged. */
  text: string;
  /** One symbol per character; null for ordinary text. */
  glyph: string | null;
}

/**
 * Splits text into ordinary runs and whitespace runs *without replacing anything*: Raw keeps
 * every character of the wire text and draws the symbols over them, so offsets stay exact.
 * A whitespace run holds one kind of character; each tab is a run of its own, because a tab's
 * width depends on where it falls and its arrow is drawn at its left edge.
 */
export function markWhitespace(text: string): MarkedPart[] {
  const parts: MarkedPart[] = [];
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    const symbol = SYMBOLS[character];
    const last = parts[parts.length - 1];
    if (symbol === undefined) {
      if (last !== undefined && last.glyph === null) last.text += character;
      else parts.push({ text: character, glyph: null });
    } else if (
      last !== undefined &&
      character !== "\t" &&
      last.text[0] === character &&
      last.glyph !== null
    ) {
      last.text += character;
      last.glyph += symbol;
    } else parts.push({ text: character, glyph: symbol });
  }
  return parts;
}

/**
 * A chunk's text on one line, with spaces, tabs and line breaks made visible, and bidi
 * controls named and isolated (a chunk is shown as it arrived, not reordered by them).
 */
export function ChunkText({ text }: { text: string }) {
  if (text === "") return <span className="text-fg-subtle italic">empty</span>;
  if (hasBidiControl(text))
    return (
      <>
        {isolateBidiControls(
          text,
          (piece) => (
            <ChunkText text={piece} />
          ),
          true,
        )}
      </>
    );
  return (
    <>
      {visibleWhitespace(text).map((part, index) =>
        part.whitespace ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional and never reorder
          <span key={index} className="text-fg-subtle">
            {part.text}
          </span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
