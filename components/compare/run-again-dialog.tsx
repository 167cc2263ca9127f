"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import { keepFocusIn } from "@/components/dialog/keep-focus-in";
import {
  AS_RECORDED,
  type RunTarget,
  RunTargetFields,
} from "@/components/transcripts/run-target-fields";
import type { RerunStatus } from "@/lib/server/rerun";
import type { TranscriptMeta } from "@/lib/store/store";
import { comparePath } from "./paths";

/**
 * "Run again on…": the transcript's first user message, or every one in order, as a new
 * transcript on another model and/or dialect (`POST /api/transcripts/:id/rerun`); shows how
 * far it got, then opens the compare view.
 */
export function RunAgainDialog({ meta, onClose }: { meta: TranscriptMeta; onClose(): void }) {
  const [runOn, setRunOn] = useState<RunTarget>(AS_RECORDED);
  const [mode, setMode] = useState<"first" | "all">("first");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<RerunStatus | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  // Opened from a menu that closes behind it: focus moves into the dialog (else Tab and Escape
  // would act on the page behind it), and back to the page's Compare button when it closes.
  useEffect(() => {
    const opener = document.activeElement;
    dialogRef.current?.querySelector<HTMLInputElement>("input:checked")?.focus();
    return () => {
      const compare = document.querySelector<HTMLElement>(
        '[data-testid="transcript-header"] [aria-haspopup="menu"][data-compare-menu]',
      );
      (compare ?? (opener instanceof HTMLElement ? opener : null))?.focus();
    };
  }, []);

  useEffect(() => {
    if (status === null || status.state !== "running") return;
    const timer = window.setTimeout(async () => {
      const response = await fetch(
        `/api/transcripts/${encodeURIComponent(status.transcriptId)}/rerun`,
      ).catch(() => null);
      const body = (await response?.json().catch(() => null)) as
        | (RerunStatus & { error?: string })
        | null;
      if (response?.ok && body !== null) setStatus(body);
      else
        setError(
          body?.error ??
            "Lost track of the run; it may still be going. Open the new transcript from the list.",
        );
    }, 400);
    return () => window.clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    if (status?.state === "done")
      window.location.assign(comparePath(status.source, status.transcriptId));
    if (status?.state === "failed") setError(status.error ?? "The run failed.");
  }, [status]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const { dialect, provider, modelId } = runOn;
    const body = {
      mode,
      ...(dialect === null ? {} : { dialect }),
      ...(provider === null
        ? {}
        : { model: { provider, ...(modelId.trim() === "" ? {} : { id: modelId.trim() }) } }),
    };
    const response = await fetch(`/api/transcripts/${encodeURIComponent(meta.id)}/rerun`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).catch((failure: unknown) => failure as Error);
    if (response instanceof Error) {
      setError(`The connection to the server failed: ${response.message}`);
      return;
    }
    const answer = (await response.json().catch(() => null)) as
      | (RerunStatus & { error?: string })
      | null;
    if (!response.ok || answer === null)
      setError(answer?.error ?? `The server answered ${response.status}.`);
    else setStatus(answer);
  };

  const running = status !== null && status.state !== "failed";
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-black/40 pt-[12vh]">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="run-again-title"
        onKeyDown={(key) => {
          if (key.key === "Escape" && !running) onClose();
          keepFocusIn(dialogRef.current, key);
        }}
        className="w-[34rem] max-w-[calc(100vw-2rem)]"
        data-testid="run-again-dialog"
      >
        <form
          onSubmit={(event) => void submit(event)}
          className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-2xl"
        >
          <div>
            <h2 id="run-again-title" className="text-sm font-semibold text-fg">
              Run again on…
            </h2>
            <p className="mt-0.5 text-xs text-fg-muted">
              The same user messages as a new transcript, then the two side by side. This one stays
              as it is.
            </p>
          </div>
          <fieldset className="flex flex-col gap-1 text-xs text-fg" disabled={running}>
            <legend className="mb-1 text-fg-muted">Messages</legend>
            <label className="flex items-center gap-1.5">
              <input
                type="radio"
                name="rerun-mode"
                checked={mode === "first"}
                onChange={() => setMode("first")}
              />
              The first user message
            </label>
            <label className="flex items-center gap-1.5">
              <input
                type="radio"
                name="rerun-mode"
                checked={mode === "all"}
                onChange={() => setMode("all")}
              />
              Every user message, in order
            </label>
          </fieldset>
          <RunTargetFields recorded={meta} value={runOn} onChange={setRunOn} disabled={running} />
          {status !== null && status.state !== "failed" ? (
            <p role="status" className="text-xs text-fg" data-testid="rerun-progress">
              {status.state === "done"
                ? "Done: opening the comparison…"
                : `Running: ${status.done} of ${status.total} ${status.total === 1 ? "message" : "messages"} finished…`}{" "}
              <a
                className="text-info hover:underline"
                href={`/t/${encodeURIComponent(status.transcriptId)}`}
              >
                watch it
              </a>
            </p>
          ) : null}
          {error !== null ? (
            <p role="alert" className="text-xs text-danger">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              onClick={onClose}
              className="rounded px-2.5 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
            >
              {running ? "Close (it goes on)" : "Cancel"}
            </button>
            <button
              type="submit"
              disabled={running}
              className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-accent-fg hover:opacity-90 disabled:opacity-40"
            >
              Run and compare
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
