"use client";

import { useEffect, useState } from "react";
import { CompareView } from "./compare-view";
import { type LoadedTranscript, type LoadResult, loadTranscript } from "./load";
import { TranscriptPicker } from "./transcript-picker";

type SideState =
  | { state: "loading"; loaded: number; total: number }
  | { state: "done"; result: LoadResult };

/** `/compare?a=&b=`: loads both transcripts (paged), then compares; a picker for a missing side. */
export function ComparePage({ a, b }: { a?: string; b?: string }) {
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-border bg-surface px-3 text-[13px]">
        <a href="/" className="font-semibold text-fg hover:underline">
          Wirescope
        </a>
        <h1 className="m-0 text-[13px] font-medium text-fg-muted">Compare two transcripts</h1>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">
        {a === undefined || b === undefined ? (
          <TranscriptPicker a={a} b={b} />
        ) : (
          <Loaded a={a} b={b} />
        )}
      </main>
    </div>
  );
}

function Loaded({ a, b }: { a: string; b: string }) {
  const left = useLoad(a);
  const right = useLoad(b);
  if (left.state === "done" && right.state === "done") {
    if (left.result.ok && right.result.ok)
      return <CompareView a={left.result.value} b={right.result.value} />;
    return (
      <div className="p-4" role="alert" data-testid="compare-error">
        <p className="m-0 mb-2 text-[14px] font-medium text-danger">
          These two cannot be compared.
        </p>
        <ul className="m-0 list-disc pl-5 text-[13px] text-fg">
          {left.result.ok ? null : (
            <li>
              A ({a}): {left.result.error}
            </li>
          )}
          {right.result.ok ? null : (
            <li>
              B ({b}): {right.result.error}
            </li>
          )}
        </ul>
        <p className="mt-3 text-[13px]">
          <a
            className="text-info hover:underline"
            href={`/compare${left.result.ok ? `?a=${encodeURIComponent(a)}` : right.result.ok ? `?b=${encodeURIComponent(b)}` : ""}`}
          >
            Choose another transcript
          </a>
        </p>
      </div>
    );
  }
  return (
    <p className="m-0 p-4 text-[13px] text-fg-muted" role="status" data-testid="compare-loading">
      Loading… A: {progress(left)} · B: {progress(right)}
    </p>
  );
}

function progress(side: SideState): string {
  if (side.state === "done") return side.result.ok ? "loaded" : "failed";
  return side.total > 0
    ? `${side.loaded.toLocaleString("en-US")} of ${side.total.toLocaleString("en-US")} records`
    : "starting";
}

function useLoad(id: string): SideState {
  const [side, setSide] = useState<SideState>({ state: "loading", loaded: 0, total: 0 });
  useEffect(() => {
    const controller = new AbortController();
    setSide({ state: "loading", loaded: 0, total: 0 });
    void loadTranscript(id, controller.signal, (loaded, total) => {
      if (!controller.signal.aborted) setSide({ state: "loading", loaded, total });
    }).then((result) => {
      if (!controller.signal.aborted) setSide({ state: "done", result });
    });
    return () => controller.abort();
  }, [id]);
  return side;
}

export type { LoadedTranscript };
