"use client";

import { type ComponentProps, memo, useDeferredValue, useRef } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { remarkVariables } from "./remark-variables";
import { safeUrl } from "./safe-url";
import { useTimelineMoving } from "./scroll-activity";
import { VariableChip } from "./variable-chip";
import type { VariableState } from "./variables";

interface MarkdownProps {
  text: string;
  /** Resolves `$name` placeholders (action dialect); without it they stay plain text. */
  resolve?: (name: string) => VariableState;
}

/**
 * Model-written markdown, rendered inert: raw HTML shows as text (no rehype-raw), links keep
 * only http(s)/mailto targets, and images are never fetched: they show as their alt text
 * and a link. A model can make text look odd here, but never run code or load anything.
 *
 * A card that mounts (scrolled into view, a long transcript opened) shows its text plain for a
 * moment and is parsed in a deferred render (React yields between cards), and not before the
 * timeline's scrolling settles: scrolling fast through hundreds of answers parses only those
 * it stops at.
 */
export const Markdown = memo(function Markdown({ text, resolve }: MarkdownProps) {
  // While streaming, the markdown may trail the text by a render; only a first mount is plain,
  // and one made while the timeline is scrolled stays plain until the scrolling settles.
  const moving = useTimelineMoving();
  const parsed = useRef(false);
  const ready = useDeferredValue(moving && !parsed.current ? "" : text, "");
  if (ready === "" && text !== "")
    return <div className={`${PROSE} whitespace-pre-wrap`}>{text}</div>;
  parsed.current = true;
  return <ParsedMarkdown text={ready} resolve={resolve} />;
});

/** The parse itself, memoised: the urgent render that still shows the old text parses nothing. */
const ParsedMarkdown = memo(function ParsedMarkdown({ text, resolve }: MarkdownProps) {
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

const PROSE = [
  "min-w-0 break-words text-sm leading-relaxed text-fg",
  "[&>*:first-child]:mt-0 [&>*:last-child]:mb-0",
  "[&_p]:my-2 [&_ul]:my-2 [&_ol]:my-2 [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-5 [&_ol]:pl-5",
  "[&_li]:my-0.5 [&_blockquote]:border-l-2 [&_blockquote]:border-border [&_blockquote]:pl-3 [&_blockquote]:text-fg-muted",
  "[&_h1]:mt-3 [&_h1]:mb-2 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:mb-1.5 [&_h2]:text-sm [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold",
  "[&_code]:rounded [&_code]:bg-surface-2 [&_code]:px-1 [&_code]:py-px [&_code]:font-mono [&_code]:text-[12px]",
  "[&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:border [&_pre]:border-border/70 [&_pre]:bg-wire-bg [&_pre]:p-2.5 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:my-2 [&_table]:border-collapse [&_table]:text-xs [&_th]:border [&_th]:border-border [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border [&_td]:border-border [&_td]:px-2 [&_td]:py-1",
  "[&_hr]:my-3 [&_hr]:border-border [&_.contains-task-list]:list-none [&_.contains-task-list]:pl-1 [&_.task-list-item_input]:mr-1.5 [&_.task-list-item_input]:align-middle",
].join(" ");
