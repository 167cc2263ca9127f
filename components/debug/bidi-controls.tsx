import { Fragment, type ReactNode } from "react";

/**
 * Bidirectional embedding, override and isolate controls (LRE, RLE, PDF, LRO, RLO, LRI, RLI,
 * FSI, PDI). In wire text they are data: a model (or a custom dialect's marker) that writes
 * U+202E would otherwise make the Raw view draw the rest of its line backwards, so the view
 * would not show what was written.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** Their names, shown in whitespace mode. */
const NAMES: Record<string, string> = {
  "\u202a": "LRE",
  "\u202b": "RLE",
  "\u202c": "PDF",
  "\u202d": "LRO",
  "\u202e": "RLO",
  "\u2066": "LRI",
  "\u2067": "RLI",
  "\u2068": "FSI",
  "\u2069": "PDI",
};

export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

/**
 * `text` with each bidi control in an isolate of its own: the character stays in the DOM (so
 * offsets, selection and copy are exact) but its effect ends where its isolate does. `rest`
 * renders the text between them (whitespace marks, say). With `named`, each control shows its
 * name (generated content: not text, not selectable).
 */
export function isolateBidiControls(
  text: string,
  rest: (piece: string) => ReactNode,
  named = false,
): ReactNode[] {
  const nodes: ReactNode[] = [];
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    const name = NAMES[character];
    if (name === undefined) continue;
    if (index > from) nodes.push(<Fragment key={from}>{rest(text.slice(from, index))}</Fragment>);
    nodes.push(
      <span
        key={index}
        data-bidi={name}
        style={{ unicodeBidi: "isolate" }}
        className={
          named
            ? "before:rounded-sm before:px-px before:text-[0.75em] before:text-fg-subtle before:opacity-80 before:content-[attr(data-bidi)_/_'']"
            : undefined
        }
      >
        {character}
      </span>,
    );
    from = index + 1;
  }
  if (from < text.length) nodes.push(<Fragment key={from}>{rest(text.slice(from))}</Fragment>);
  return nodes;
}
