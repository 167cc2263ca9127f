/** What each whitespace character is drawn as in the Chunks view. */
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

/** A chunk's text on one line, with spaces, tabs and line breaks made visible. */
export function ChunkText({ text }: { text: string }) {
  if (text === "") return <span className="text-fg-subtle italic">empty</span>;
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
