"use client";

import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { comparePath } from "@/components/compare/paths";
import type { TranscriptSummary } from "@/lib/store/store";
import { formatFullDate, formatSavedAt } from "./format-date";
import { PencilIcon, TrashIcon } from "./icons";
import { RunningIndicator } from "./running-indicator";
import { SourceBadge } from "./source-filter";

interface TranscriptItemProps {
  transcript: TranscriptSummary;
  active: boolean;
  now: number;
  /** The list is one tab stop: only the roving item's open button takes Tab. */
  focusable: boolean;
  onFocus(): void;
  onOpen(): void;
  onRename(title: string): void;
  onDelete(): void;
}

/**
 * One saved transcript: title (renamed in place), date, dialect and model, and why a search
 * matched; compare (the Tab after the title), rename (F2) and delete (Delete) overlay the row
 * on hover or focus, so the title keeps its width.
 */
export function TranscriptItem(props: TranscriptItemProps) {
  const { transcript, active, now } = props;
  const [editing, setEditing] = useState(false);
  // A rename ended with Enter or Escape gives the focus back to the row (the field it was in is
  // gone); one ended by leaving the field lets the focus go where the user sent it.
  const openButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    openButton.current?.focus();
  }, [editing]);
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
          onDone={(title, byKey) => {
            refocus.current = byKey;
            setEditing(false);
            if (title !== null && title !== transcript.title) props.onRename(title);
          }}
        />
      ) : (
        <button
          ref={openButton}
          type="button"
          data-open-button
          tabIndex={props.focusable ? 0 : -1}
          onFocus={props.onFocus}
          onClick={props.onOpen}
          onDoubleClick={() => setEditing(true)}
          onKeyDown={(key) => {
            if (key.key === "F2") {
              key.preventDefault();
              setEditing(true);
            }
            if (key.key === "Delete") {
              key.preventDefault();
              props.onDelete();
            }
          }}
          aria-keyshortcuts="F2 Delete"
          className="block w-full min-w-0 rounded-md px-2.5 py-1.5 text-left focus-visible:-outline-offset-2"
        >
          <span className="flex min-w-0 items-center gap-1.5">
            <SourceBadge source={transcript.source} />
            <span className="truncate text-[13px] text-fg" title={transcript.title}>
              {transcript.title}
            </span>
          </span>
          {transcript.match === undefined ? null : (
            <span
              className="mt-0.5 line-clamp-2 text-[11px] break-words text-fg-muted"
              data-testid="search-match"
            >
              {leadIn(transcript.match.before)}
              <mark className="rounded-sm bg-accent/25 px-px text-fg">{transcript.match.text}</mark>
              {transcript.match.after}
            </span>
          )}
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
            <span className="shrink-0 font-mono">
              {transcript.definition?.name ?? transcript.dialect}
            </span>
            <span aria-hidden>·</span>
            <span className="truncate font-mono" title={model}>
              {model}
            </span>
          </span>
        </button>
      )}
      {editing ? null : (
        <span className="absolute top-1 right-1 hidden items-center gap-0.5 rounded-md bg-surface-2 pl-3 shadow-[-10px_0_8px_-2px_var(--color-surface-2)] group-focus-within:flex group-hover:flex">
          <a
            href={comparePath(transcript.id)}
            // The one row action without a key of its own (F2 renames, Delete deletes): the
            // Tab after the row's title reaches it.
            tabIndex={props.focusable ? 0 : -1}
            className={ICON_BUTTON}
            title="Compare with…"
          >
            <span aria-hidden>⇄</span>
            <span className="sr-only">Compare "{transcript.title}" with…</span>
          </a>
          <button
            type="button"
            tabIndex={-1}
            className={ICON_BUTTON}
            aria-label={`Rename "${transcript.title}"`}
            title="Rename (F2)"
            onClick={() => setEditing(true)}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            tabIndex={-1}
            className={`${ICON_BUTTON} hover:text-danger`}
            aria-label={`Delete "${transcript.title}"`}
            title="Delete (Delete key)"
            onClick={props.onDelete}
          >
            <TrashIcon />
          </button>
        </span>
      )}
    </li>
  );
}

/** Characters of context kept before a search match, so the match itself stays in sight. */
const LEAD_IN = 16;

/** The end of the text before a match: a narrow row still shows the match. */
function leadIn(before: string): string {
  return before.length <= LEAD_IN ? before : `…${before.slice(-LEAD_IN).trimStart()}`;
}

/** Enter or leaving the field saves; Escape cancels (null). `byKey`: ended with Enter or Escape. */
function TitleInput({
  title,
  onDone,
}: {
  title: string;
  onDone(title: string | null, byKey: boolean): void;
}) {
  const [value, setValue] = useState(title);
  const done = useRef(false);
  const finish = (save: boolean, byKey: boolean) => {
    if (done.current) return;
    done.current = true;
    onDone(save && value.trim() !== "" ? value.trim() : null, byKey);
  };
  const onKeyDown = (key: KeyboardEvent<HTMLInputElement>) => {
    if (key.key === "Enter") finish(true, true);
    if (key.key === "Escape") finish(false, true);
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
      onBlur={() => finish(true, false)}
      onFocus={(focus) => focus.target.select()}
      className="m-1 block w-[calc(100%-0.5rem)] rounded border border-accent bg-bg px-1.5 py-1 text-[13px] text-fg"
    />
  );
}

export const ICON_BUTTON =
  "inline-flex size-6 items-center justify-center rounded text-fg-subtle hover:bg-surface hover:text-fg disabled:opacity-40";
