"use client";

import { type ComponentProps, memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { MarkdownProps } from "./markdown";
import { PROSE } from "./prose";
import { remarkVariables } from "./remark-variables";
import { safeUrl } from "./safe-url";
import { VariableChip } from "./variable-chip";

/**
 * The markdown parse and its inert rendering (react-markdown, remark-gfm: ~130 KB with
 * micromark). Its own chunk, loaded by `Markdown` after the first cards have painted.
 */
/** The parse itself, memoised: the urgent render that still shows the old text parses nothing. */
export const ParsedMarkdown = memo(function ParsedMarkdown({ text, resolve }: MarkdownProps) {
  const plugins = resolve === undefined ? [remarkGfm] : [remarkGfm, [remarkVariables, { resolve }]];
  return (
    <div className={PROSE}>
      <ReactMarkdown
        remarkPlugins={plugins as ComponentProps<typeof ReactMarkdown>["remarkPlugins"]}
        urlTransform={safeUrl}
        components={COMPONENTS}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

const COMPONENTS: Components = {
  a: ({ href, children }) =>
    href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="text-info underline decoration-info/40 underline-offset-2 hover:decoration-info"
      >
        {children}
      </a>
    ) : (
      <span className="underline decoration-dotted decoration-fg-subtle" title="Link removed">
        {children}
      </span>
    ),
  img: ({ src, alt }) => {
    const target = typeof src === "string" ? src : "";
    const label = `image: ${alt || "untitled"}`;
    return target ? (
      <a href={target} target="_blank" rel="noopener noreferrer nofollow" className="text-info">
        [{label}]
      </a>
    ) : (
      <span className="text-fg-subtle">[{label}]</span>
    );
  },
  // A task list's boxes ("- [x] done"): inert, and named, since they have no label of their own.
  input: ({ node: _node, ...props }) =>
    props.type === "checkbox" ? (
      <input {...props} disabled aria-label={props.checked ? "done" : "not done"} />
    ) : (
      <input {...props} />
    ),
  span: ({ node: _node, children, ...props }) => {
    const data = props as Record<string, unknown>;
    const name = data["data-variable"];
    const state = data["data-state"];
    if (typeof name === "string" && typeof state === "string")
      return (
        <VariableChip name={name} state={state}>
          {children}
        </VariableChip>
      );
    return <span>{children}</span>;
  },
};
