"use client";

import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { rowAfterKey } from "@/components/debug/table-keys";
import { scrollWithin } from "@/components/scroll/scroll-within";
import type { TranscriptSource, TranscriptSummary } from "@/lib/store/store";
import { usePlayground } from "@/state/playground-store";
import { deleteTranscript, renameTranscript, restoreTranscript } from "./api";
import { PlusIcon } from "./icons";
import { ImportButton } from "./import-button";
import { newConversation, openTranscript } from "./navigation";
import { quotedTitle } from "./notice-toast";
import { SourceFilter } from "./source-filter";
import { ICON_BUTTON, TranscriptItem } from "./transcript-item";
import { useTranscriptList } from "./use-transcript-list";

/** Saved transcripts, newest first: search, open, rename, delete with undo, import. */
export function Sidebar() {
  const [query, setQuery] = useState("");
  const [source, setSource] = useState<TranscriptSource | undefined>(undefined);
  const list = useTranscriptList(query, source);
  const activeId = usePlayground((state) => state.transcriptId);
  const busy = usePlayground((state) => state.status === "running" || state.status === "stopping");
  const now = useNow();
  const listRef = useRef<HTMLUListElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [roving, setRoving] = useState<string | null>(null);
  const ids = list.transcripts.map((transcript) => transcript.id);
  // The Tab stop: the item last focused, else the open transcript, else the first.
  const tabStop =
    (roving !== null && ids.includes(roving) ? roving : null) ??
    (activeId !== null && ids.includes(activeId) ? activeId : (ids[0] ?? null));

  // The open transcript scrolls into view (opened from a link, a fork, or further down).
  const activeListed = activeId !== null && ids.includes(activeId);
  useEffect(() => {
    if (activeId === null || !activeListed) return;
    const items = listRef.current?.querySelectorAll<HTMLElement>("[data-transcript-id]") ?? [];
    const item = [...items].find((candidate) => candidate.dataset.transcriptId === activeId);
    if (item !== undefined && scrollerRef.current !== null) scrollWithin(scrollerRef.current, item);
  }, [activeId, activeListed]);

  const onListKey = (key: KeyboardEvent<HTMLUListElement>) => {
    const at = tabStop === null ? -1 : ids.indexOf(tabStop);
    const next = rowAfterKey(key.key, at, ids.length);
    if (next === null || (key.target as HTMLElement).tagName === "INPUT") return;
    key.preventDefault();
    const buttons = listRef.current?.querySelectorAll<HTMLElement>("[data-open-button]");
    buttons?.[next]?.focus();
  };
  /**
   * Before a row is deleted, the focus moves to the row after it (or before it, for the last),
   * else to the search field: the deleted row's buttons are about to go, and the focus with
   * them, to the page's start.
   */
  const focusAwayFrom = (id: string) => {
    if (!listRef.current?.contains(document.activeElement)) return;
    const at = ids.indexOf(id);
    const next = ids[at + 1] ?? ids[at - 1];
    const rows = listRef.current.querySelectorAll<HTMLElement>("[data-transcript-id]");
    const row = [...rows].find((candidate) => candidate.dataset.transcriptId === next);
    const target = row?.querySelector<HTMLElement>("[data-open-button]");
    if (target != null) target.focus();
    else searchRef.current?.focus();
  };
  const searchRef = useRef<HTMLInputElement>(null);

  return (
    <aside
      aria-label="Transcripts"
      // Its width is kept beside the conversation (min-w), not by `shrink-0`: in the drawer, a
      // column, that kept its height too, so a long list ran off the screen unscrollable and
      // the open transcript, scrolled into view, moved the whole page up.
      className="flex min-h-0 w-64 min-w-64 flex-col border-r border-border bg-surface"
    >
      <div className="flex h-10 shrink-0 items-center gap-1 px-2.5">
        <h2 className="text-[11px] font-medium uppercase tracking-wide text-fg-subtle">
          Transcripts
        </h2>
        <span className="ml-auto flex items-center gap-0.5">
          <ImportButton />
          <button
            type="button"
            className={ICON_BUTTON}
            aria-label="New conversation"
            title="New conversation"
            disabled={busy}
            onClick={() => {
              closeDrawer();
              newConversation();
            }}
          >
            <PlusIcon />
          </button>
        </span>
      </div>
      <div className="flex gap-1 px-2.5 pb-2">
        <input
          ref={searchRef}
          type="search"
          value={query}
          onChange={(change) => setQuery(change.target.value)}
          // Short: the source filter leaves the field 9 rem, and a cut-off hint reads as a bug.
          placeholder="Search…"
          aria-label="Search transcripts"
          className="min-w-0 flex-1 rounded-md border border-border bg-bg px-2 py-1 text-[13px] text-fg placeholder:text-fg-subtle focus:border-accent"
        />
        <SourceFilter value={source} onChange={setSource} />
      </div>
      <div ref={scrollerRef} className="min-h-0 flex-1 overflow-y-auto px-1.5 pb-2">
        {list.error !== null ? (
          <p className="px-1 py-2 text-xs text-danger">{list.error}</p>
        ) : list.transcripts.length === 0 && !list.loading ? (
          <p className="px-1 py-2 text-xs text-fg-subtle">
            {query.trim() === "" && source === undefined
              ? "No saved transcripts yet."
              : "Nothing matches."}
          </p>
        ) : null}
        <ul
          ref={listRef}
          className="flex flex-col gap-px"
          aria-label="Saved transcripts (arrow keys move, Enter opens, F2 renames)"
          onKeyDown={onListKey}
        >
          {list.transcripts.map((transcript) => (
            <TranscriptItem
              key={transcript.id}
              transcript={transcript}
              active={transcript.id === activeId}
              now={now}
              focusable={transcript.id === tabStop}
              onFocus={() => setRoving(transcript.id)}
              onOpen={() => {
                if (busy) return;
                closeDrawer();
                if (transcript.id !== activeId) void openTranscript(transcript.id);
              }}
              onRename={(title) => void rename(transcript.id, title)}
              onDelete={() => {
                focusAwayFrom(transcript.id);
                void remove(transcript);
              }}
            />
          ))}
        </ul>
        {list.more ? (
          <button
            type="button"
            onClick={list.loadMore}
            className="mt-1 w-full rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
          >
            Load more
          </button>
        ) : null}
      </div>
    </aside>
  );
}

/**
 * A conversation picked in the transcripts drawer (a narrow window) is shown: the drawer over
 * it closes, and the focus goes back to where it was before it opened.
 */
function closeDrawer(): void {
  const state = usePlayground.getState();
  if (state.drawer === "sidebar") state.setUi({ drawer: null });
}

async function rename(id: string, title: string): Promise<void> {
  const result = await renameTranscript(id, title);
  const state = usePlayground.getState();
  if (!result.ok) {
    state.notify({ text: `Could not rename: ${result.error}`, tone: "danger" });
    return;
  }
  const { transcript } = state;
  if (transcript?.meta.id === id)
    state.setTranscript({
      ...transcript,
      meta: { ...transcript.meta, title: result.value.meta.title },
    });
  state.refreshList();
}

/** Deletes at once (the server keeps it restorable) and offers an undo. */
async function remove(transcript: TranscriptSummary): Promise<void> {
  const result = await deleteTranscript(transcript.id);
  const state = usePlayground.getState();
  if (!result.ok) {
    state.notify({ text: `Could not delete: ${result.error}`, tone: "danger" });
    return;
  }
  const wasOpen = state.transcriptId === transcript.id;
  if (wasOpen) newConversation();
  state.refreshList();
  state.notify({
    text: `Deleted ${quotedTitle(transcript.title)}.`,
    tone: "info",
    action: {
      label: "Undo",
      run: () =>
        void restoreTranscript(transcript.id).then((restored) => {
          const after = usePlayground.getState();
          if (!restored.ok) {
            after.notify({ text: `Could not restore: ${restored.error}`, tone: "danger" });
            return;
          }
          after.refreshList();
          if (wasOpen && after.transcriptId === null) void openTranscript(transcript.id);
        }),
    },
  });
}

/** The time the relative dates are measured from, moving once a minute. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
