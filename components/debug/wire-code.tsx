"use client";

import { useMemo } from "react";
import type { Decoration } from "./segments";
import { useWireHighlighter } from "./use-wire-highlighter";
import type { WireLang } from "./wire-highlighter";
import { WireLine } from "./wire-line";
import { tokenizeLines } from "./wire-runs";

const NO_DECORATIONS: readonly Decoration[] = [];

/** A finished piece of text (a message, an event's JSON), highlighted once it is shown. */
export function WireCode({ text, lang = "wire" }: { text: string; lang?: WireLang }) {
  const highlighter = useWireHighlighter();
  const starts = useMemo(() => lineStarts(text), [text]);
  const runs = useMemo(
    () => (highlighter === null ? null : tokenizeLines(highlighter, text, 0, { lang }).lines),
    [highlighter, text, lang],
  );
  return (
    <>
      {starts.map((start, index) => {
        const end = starts[index + 1] ?? text.length;
        return end <= start ? null : (
          <WireLine
            key={start}
            text={text.slice(start, end)}
            start={start}
            runs={runs?.[index]}
            decorations={NO_DECORATIONS}
          />
        );
      })}
    </>
  );
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}
