"use client";

import { type KeyboardEvent, useRef, useState } from "react";
import type { TranscriptSummary } from "@/lib/store/store";
import { formatFullDate, formatSavedAt } from "./format-date";
import { PencilIcon, TrashIcon } from "./icons";
import { RunningIndicator } from "./running-indicator";

interface TranscriptItemProps {
  transcript: TranscriptSummary;
  active: boolean;
  now: number;
  onOpen(): void;
  onRename(title: string): void;
  onDelete(): void;
}

/** One saved transcript: title (renamed in place), date, dialect and model; rename and delete. */
export function TranscriptItem(props: TranscriptItemProps) {
  const { transcript, active, now } = props;
  const [editing, setEditing] = useState(false);
  const model =
    transcript.model.provider === "demo"
      ? "demo"
      : `${transcript.model.provider} · ${transcript.model.id}`;

  return (
    <li
      className={`group relative rounded-md ${active ? "bg-surface-2" : "hover:bg-surface-2/60"}`}
      data-testid="transcript-item"
      data-transcript-id={transcript.id}
      aria-current={active ? "page" : undefined}
    >
      {active ? (
        <span className="absolute inset-y-1.5 left-0 w-0.5 rounded-full bg-accent" aria-hidden />
      ) : null}
      {editing ? (
        <TitleInput
          title={transcript.title}
          onDone={(title) => {
            setEditing(false);
            if (title !== null && title !== transcript.title) props.onRename(title);
          }}
        />
      ) : (
        <button
          type="button"
          onClick={props.onOpen}
          onDoubleClick={() => setEditing(true)}
          className="block w-full min-w-0 px-2.5 py-1.5 pr-14 text-left"
        >
          <span className="block truncate text-[13px] text-fg" title={transcript.title}>
            {transcript.title}
          </span>
          <span className="mt-0.5 flex min-w-0 items-center gap-1.5 text-[11px] text-fg-subtle">
            <RunningIndicator transcriptId={transcript.id} />
            <time
              dateTime={new Date(transcript.updatedAt).toISOString()}
              className="shrink-0 whitespace-nowrap"
            >
              <span title={formatFullDate(transcript.updatedAt)}>
                {formatSavedAt(transcript.updatedAt, now)}
              </span>
            </time>
            <span aria-hidden>·</span>
            <span className="shrink-0 font-mono">{transcript.dialect}</span>
            <span aria-hidden>·</span>
            <span className="truncate font-mono" title={model}>
              {model}
            </span>
          </span>
        </button>
      )}
      {editing ? null : (
        <span className="absolute top-1.5 right-1.5 hidden items-center gap-0.5 group-focus-within:flex group-hover:flex">
          <button
            type="button"
            className={ICON_BUTTON}
            aria-label={`Rename "${transcript.title}"`}
            title="Rename"
            onClick={() => setEditing(true)}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            className={`${ICON_BUTTON} hover:text-danger`}
            aria-label={`Delete "${transcript.title}"`}
            title="Delete"
            onClick={props.onDelete}
          >
            <TrashIcon />
          </button>
        </span>
      )}
    </li>
  );
}

/** Enter or leaving the field saves; Escape cancels (null). */
function TitleInput({ title, onDone }: { title: string; onDone(title: string | null): void }) {
  const [value, setValue] = useState(title);
  const done = useRef(false);
  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    onDone(save && value.trim() !== "" ? value.trim() : null);
  };
  const onKeyDown = (key: KeyboardEvent<HTMLInputElement>) => {
    if (key.key === "Enter") finish(true);
    if (key.key === "Escape") finish(false);
  };
  return (
    <input
      // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this title
      autoFocus
      value={value}
      maxLength={500}
      aria-label="Title"
      onChange={(change) => setValue(change.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(true)}
      onFocus={(focus) => focus.target.select()}
      className="m-1 block w-[calc(100%-0.5rem)] rounded border border-accent bg-bg px-1.5 py-1 text-[13px] text-fg outline-none"
    />
  );
}

export const ICON_BUTTON =
  "inline-flex size-6 items-center justify-center rounded text-fg-subtle hover:bg-surface hover:text-fg disabled:opacity-40";
