"use client";

import { useEffect, useState } from "react";
import { CompareMenu } from "@/components/compare/compare-menu";
import { regressionRun } from "@/components/replay/regression-run";
import { ReplayBar } from "@/components/replay/replay-bar";
import { usePlayground } from "@/state/playground-store";
import { loadAll } from "@/state/transcript-pages";
import { ExportMenu } from "./export-menu";
import { ForkDialog } from "./fork-dialog";
import { requestFork } from "./fork-menu";
import { type ForkTarget, forkTargetOf } from "./fork-target";
import { ForkIcon } from "./icons";
import { Lineage } from "./lineage";
import { PendingHeader } from "./pending-header";

/** A re-run sends every user message again: it starts once the whole transcript is loaded. */
function rerun(whole: boolean): void {
  const transcript = usePlayground.getState().transcript;
  if (whole && transcript !== null) void regressionRun(transcript);
}

/**
 * Above the timeline when a saved transcript is open: its title and where it came from, fork
 * and export, and the replay bar.
 */
export function TranscriptHeader() {
  const transcript = usePlayground((state) => state.transcript);
  const transcriptId = usePlayground((state) => state.transcriptId);
  const busy = usePlayground((state) => state.status === "running" || state.status === "stopping");
  const selectedId = usePlayground((state) => state.selectedId);
  const showIds = usePlayground((state) => state.showIds);
  const started = usePlayground(
    (state) =>
      state.status === "running" || state.status === "stopping" || state.transcriptId !== null,
  );
  const [forkTarget, setForkTarget] = useState<ForkTarget | null>(null);

  useEffect(() => {
    const onFork = (event: Event) => {
      const state = usePlayground.getState();
      if (state.transcript === null) return;
      const id = (event as CustomEvent<string | null>).detail ?? state.selectedId;
      setForkTarget(forkTargetOf(state.transcript.records, id));
    };
    window.addEventListener("wirescope:fork", onFork);
    return () => window.removeEventListener("wirescope:fork", onFork);
  }, []);

  if (transcript === null || transcript.meta.id !== transcriptId)
    return started ? <PendingHeader /> : null;
  const { meta } = transcript;
  const selected = selectedId === null ? "end" : forkTargetOf(transcript.records, selectedId).kind;

  return (
    <div className="shrink-0 border-b border-border bg-surface" data-testid="transcript-header">
      <div className="flex h-9 min-w-0 items-center gap-2 px-3 text-xs">
        <h1
          className="min-w-[5rem] max-w-max shrink truncate text-[13px] font-medium text-fg"
          title={meta.title}
        >
          {meta.title}
        </h1>
        <Lineage transcript={transcript} />
        <span className="ml-auto flex shrink-0 items-center gap-1">
          <button
            type="button"
            aria-pressed={showIds}
            onClick={() => usePlayground.getState().setUi({ showIds: !showIds })}
            title="Show the internal ids of calls and errors on the cards"
            className={`${ACTION} ${showIds ? "bg-surface-2 text-fg" : ""}`}
          >
            Show ids
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void loadAll().then((whole) => rerun(whole))}
            title="A regression run: the same messages again; the replay model answers with the recorded output, tools run live"
            aria-label="Re-run with replay model"
            className={ACTION}
          >
            <span className="hidden 2xl:inline">Re-run with replay model</span>
            <span className="2xl:hidden">Re-run</span>
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => requestFork(null)}
            title={
              selected === "end"
                ? "Fork at the end (select a user message or a call card to fork there)"
                : `Fork at the selected ${selected === "user" ? "user message" : "call"}`
            }
            className={ACTION}
          >
            <ForkIcon />
            Fork…
          </button>
          <CompareMenu meta={meta} busy={busy} />
          <ExportMenu transcriptId={meta.id} />
        </span>
      </div>
      <ReplayBar transcript={transcript} busy={busy} />
      {forkTarget !== null ? (
        <ForkDialog
          transcript={transcript}
          target={forkTarget}
          onClose={() => setForkTarget(null)}
        />
      ) : null}
    </div>
  );
}

const ACTION =
  "inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40";
