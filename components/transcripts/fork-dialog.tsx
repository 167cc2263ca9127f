"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";
import { keepFocusIn } from "@/components/dialog/keep-focus-in";
import type { ResultStatus } from "@/lib/protocol";
import { owesTurn } from "@/lib/transcripts/fork";
import type { OpenTranscript } from "@/state/playground-store";
import { type ForkMode, forkRequestOf, initialText, modesOf } from "./fork-body";
import { forkAndRun } from "./fork-run";
import type { ForkTarget } from "./fork-target";
import { AS_RECORDED, FIELD, type RunTarget, RunTargetFields } from "./run-target-fields";

const MODE_LABEL: Record<ForkMode, string> = {
  edit: "Edit the message",
  mock: "Mock the result",
  rerun: "Run on from here",
};

interface ForkDialogProps {
  transcript: OpenTranscript;
  target: ForkTarget;
  onClose(): void;
}

/** Forks the open transcript at a point, with an edit or another model/dialect, and runs it. */
export function ForkDialog({ transcript, target, onClose }: ForkDialogProps) {
  const modes = modesOf(target);
  const [mode, setMode] = useState<ForkMode>(modes[0] ?? "rerun");
  const [text, setText] = useState(() => initialText(target, modes[0] ?? "rerun"));
  const [status, setStatus] = useState<ResultStatus>(
    target.kind === "call" ? (target.result?.status ?? "success") : "success",
  );
  const [runOn, setRunOn] = useState<RunTarget>(AS_RECORDED);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  // Read while rendering, before the text field's autofocus moves focus into the dialog.
  const [opener] = useState(() =>
    typeof document === "undefined" ? null : document.activeElement,
  );
  const { meta } = transcript;

  // Modal: focus starts inside (the text field, or the chosen mode) and goes back to what
  // opened the dialog when it closes.
  useEffect(() => {
    const form = dialogRef.current;
    if (form !== null && !form.contains(document.activeElement))
      form.querySelector<HTMLElement>("textarea, input:checked")?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [opener]);
  const needsMessage =
    mode === "rerun" &&
    target.kind === "end" &&
    !owesTurn(transcript.records) &&
    text.trim() === "";

  const choose = (next: ForkMode) => {
    setMode(next);
    setText(initialText(target, next));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const { dialect, provider, modelId } = runOn;
    const model = provider === null ? null : { provider, id: modelId.trim() || "default" };
    const { body, message } = forkRequestOf(target, { mode, text, status, dialect, model });
    setSending(true);
    setError(null);
    const refused = await forkAndRun(meta.id, body, message, onClose);
    if (refused !== null) {
      setSending(false);
      setError(refused);
    }
  };

  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-black/40 pt-[12vh]">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-label="Fork"
        onKeyDown={(key) => {
          if (key.key === "Escape") onClose();
          keepFocusIn(dialogRef.current, key);
        }}
        className="flex w-[36rem] max-w-[calc(100vw-2rem)] flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-2xl"
      >
        {/* A form may not be a dialog (ARIA): it lays its rows out in the dialog's column. */}
        <form className="contents" onSubmit={(event) => void submit(event)}>
          <div>
            <h2 className="text-sm font-semibold text-fg">Fork from here</h2>
            <p className="mt-0.5 text-xs text-fg-muted">
              {whereFrom(target)} The original stays as it is.
            </p>
          </div>
          <fieldset className="flex gap-1" aria-label="What to change">
            {modes.map((option) => (
              <label
                key={option}
                className={`cursor-pointer rounded-md border px-2 py-1 text-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-solid has-[:focus-visible]:outline-accent has-[:focus-visible]:outline-offset-1 ${option === mode ? "border-accent text-fg" : "border-border text-fg-muted hover:text-fg"}`}
              >
                <input
                  type="radio"
                  name="fork-mode"
                  className="sr-only"
                  checked={option === mode}
                  onChange={() => choose(option)}
                />
                {MODE_LABEL[option]}
              </label>
            ))}
          </fieldset>
          {mode === "rerun" && target.kind !== "end" ? null : (
            <label className="flex flex-col gap-1 text-xs text-fg-muted">
              {mode === "edit"
                ? "Message"
                : mode === "mock"
                  ? "Result (JSON or text)"
                  : "Message to continue with"}
              <textarea
                // biome-ignore lint/a11y/noAutofocus: the dialog opens to edit this text
                autoFocus
                value={text}
                onChange={(change) => setText(change.target.value)}
                rows={mode === "mock" ? 8 : 3}
                className={`${FIELD} resize-y font-mono text-xs`}
              />
            </label>
          )}
          {mode === "mock" ? (
            <label className="flex items-center gap-2 text-xs text-fg-muted">
              Status
              <select
                value={status}
                onChange={(change) => setStatus(change.target.value as ResultStatus)}
                className={FIELD}
              >
                <option value="success">success</option>
                <option value="failure">failure</option>
                <option value="skipped">skipped</option>
              </select>
            </label>
          ) : null}
          <RunTargetFields recorded={meta} value={runOn} onChange={setRunOn} />
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
              Cancel
            </button>
            <button
              type="submit"
              disabled={sending || needsMessage || (mode === "edit" && text.trim() === "")}
              className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-accent-fg hover:opacity-90 disabled:opacity-40"
            >
              Fork and run
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

function whereFrom(target: ForkTarget): string {
  switch (target.kind) {
    case "user":
      return "From this user message: edit it and run again, or run it on with another model or dialect.";
    case "call":
      return `After the results of the batch with ${target.name} (${target.callId}).`;
    case "end":
      return "From the end of the conversation.";
  }
}
