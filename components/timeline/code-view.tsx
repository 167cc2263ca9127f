"use client";

import { useDeferredValue, useMemo, useRef } from "react";
import { useRemembered } from "./card-memory";
import { highlightJson, MAX_HIGHLIGHT_CHARS } from "./json-highlighter";
import { useTimelineMoving } from "./scroll-activity";

/** Lines shown before "Show all". */
export const PREVIEW_LINES = 12;

interface CodeViewProps {
  text: string;
  /** Highlight as JSON (only when the text is JSON the app wrote itself). */
  json: boolean;
  /** Key under which the user's "show all" is remembered. */
  memoryKey: string;
  label: string;
}

/**
 * Monospace text, JSON highlighted in both themes, long text cut to its first lines.
 *
 * A view that mounts shows its text plain for a moment and is highlighted in a deferred render
 * (React yields between cards), and not before the timeline's scrolling settles, like
 * markdown: tokenizing the JSON of every call card flung past held scroll frames for tens of
 * ms. Colours only: the text and its height do not change. While a call streams, the colours
 * may trail the text by a render (a JSON view's text never shows plain once highlighted).
 */
export function CodeView({ text, json, memoryKey, label }: CodeViewProps) {
  const [expanded, setExpanded] = useRemembered(memoryKey);
  const lines = useMemo(() => text.split("\n"), [text]);
  const long = lines.length > PREVIEW_LINES;
  const shown = long && expanded !== true ? lines.slice(0, PREVIEW_LINES).join("\n") : text;
  const moving = useTimelineMoving();
  const highlighted = useRef(false);
  const ready = useDeferredValue(moving && !highlighted.current ? "" : shown, "");
  const highlight = json && ready !== "" && ready.length <= MAX_HIGHLIGHT_CHARS;
  if (highlight) highlighted.current = true;

  return (
    <div className="overflow-hidden rounded border border-border/70 bg-wire-bg" data-label={label}>
      <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words px-2.5 py-1.5 font-mono text-xs leading-[1.55] text-fg">
        {highlight ? <JsonTokens code={ready} /> : shown}
      </pre>
      {long ? (
        <button
          type="button"
          onClick={(click) => {
            click.stopPropagation();
            setExpanded(expanded !== true);
          }}
          className="w-full border-t border-border/70 px-2.5 py-1 text-left text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:-outline-offset-2"
        >
          {expanded === true ? "Show less" : `Show all ${lines.length} lines`}
        </button>
      ) : null}
    </div>
  );
}

function JsonTokens({ code }: { code: string }) {
  const lines = useMemo(() => highlightJson(code), [code]);
  return (
    <code className="[&_span]:text-(color:--shiki-dark) light:[&_span]:text-(color:--shiki-light)">
      {lines.map((tokens, line) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable text
        <span key={line}>
          {tokens.map((token) => (
            <span key={token.offset} style={token.htmlStyle as React.CSSProperties}>
              {token.content}
            </span>
          ))}
          {line < lines.length - 1 ? "\n" : null}
        </span>
      ))}
    </code>
  );
}
