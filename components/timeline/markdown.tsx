"use client";

import { memo, startTransition, useDeferredValue, useEffect, useRef, useState } from "react";
import { PROSE } from "./prose";
import { useTimelineMoving } from "./scroll-activity";
import type { VariableState } from "./variables";

export interface MarkdownProps {
  text: string;
  /** Resolves `$name` placeholders (action dialect); without it they stay plain text. */
  resolve?: (name: string) => VariableState;
}

type Renderer = typeof import("./markdown-renderer").ParsedMarkdown;
let renderer: Renderer | null = null;
let loading: Promise<Renderer> | null = null;

/**
 * Loads the markdown renderer's chunk, once. Cards mounting call it; tests await it first so
 * that markdown renders at once.
 */
export function loadMarkdownRenderer(): Promise<Renderer> {
  loading ??= import("./markdown-renderer").then((module) => {
    renderer = module.ParsedMarkdown;
    return renderer;
  });
  return loading;
}

/** The renderer once its chunk has loaded; null until then (the text shows plain). */
function useRenderer(): Renderer | null {
  const [loaded, setLoaded] = useState<Renderer | null>(renderer);
  useEffect(() => {
    if (loaded !== null) return;
    let live = true;
    loadMarkdownRenderer().then(
      // A transition: the cards waiting for it parse in a render React yields between.
      (value) => live && startTransition(() => setLoaded(() => value)),
      (error: unknown) => console.error("The markdown renderer failed to load.", error),
    );
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

/**
 * Model-written markdown, rendered inert (`markdown-renderer`): raw HTML shows as text, links
 * keep only http(s)/mailto targets, and images are never fetched: they show as their alt text
 * and a link. A model can make text look odd here, but never run code or load anything.
 *
 * A card that mounts (scrolled into view, a long transcript opened) shows its text plain for a
 * moment and is parsed in a deferred render (React yields between cards), and not before the
 * timeline's scrolling settles: scrolling fast through hundreds of answers parses only those
 * it stops at. The parser's chunk loads after the first cards mount, so a page's first paint
 * neither loads nor runs it.
 */
export const Markdown = memo(function Markdown({ text, resolve }: MarkdownProps) {
  const Parsed = useRenderer();
  // While streaming, the markdown may trail the text by a render; only a first mount is plain,
  // and one made while the timeline is scrolled stays plain until the scrolling settles.
  const moving = useTimelineMoving();
  const parsed = useRef(false);
  const ready = useDeferredValue(moving && !parsed.current ? "" : text, "");
  if (Parsed === null || (ready === "" && text !== ""))
    return <div className={`${PROSE} whitespace-pre-wrap`}>{text}</div>;
  parsed.current = true;
  return <Parsed text={ready} resolve={resolve} />;
});
