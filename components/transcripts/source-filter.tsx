"use client";

import type { TranscriptSource } from "@/lib/store/store";

const LABEL: Record<TranscriptSource, string> = {
  playground: "Playground",
  import: "Imported",
  capture: "Captured",
};

/** Which transcripts the list shows: all, or those from one source (docs/capture-proxy.md). */
export function SourceFilter(props: {
  value: TranscriptSource | undefined;
  onChange(source: TranscriptSource | undefined): void;
}) {
  return (
    <select
      aria-label="Show transcripts from"
      title="Show transcripts from"
      value={props.value ?? "all"}
      onChange={(change) => {
        const picked = change.target.value;
        props.onChange(picked === "all" ? undefined : (picked as TranscriptSource));
      }}
      className="w-[5.5rem] shrink-0 rounded-md border border-border bg-bg px-1 py-1 text-[12px] text-fg-muted focus:border-accent"
    >
      <option value="all">All</option>
      {(Object.keys(LABEL) as TranscriptSource[]).map((source) => (
        <option key={source} value={source}>
          {LABEL[source]}
        </option>
      ))}
    </select>
  );
}

/** A captured transcript's mark in the list; nothing for the others. */
export function SourceBadge({ source }: { source: TranscriptSource }) {
  if (source !== "capture") return null;
  return (
    <span
      className="shrink-0 rounded border border-accent/50 px-1 font-mono text-[10px] leading-4 text-accent"
      title="Captured through the proxy from an agent running elsewhere"
      data-testid="captured-badge"
    >
      captured
    </span>
  );
}
