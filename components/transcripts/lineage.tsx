"use client";

import { type MouseEvent, useEffect, useState } from "react";
import type { OpenTranscript } from "@/state/playground-store";
import { getTranscriptMeta } from "./api";
import { openTranscript, transcriptPath } from "./navigation";

const titles = new Map<string, Promise<string | null>>();

/** A stored transcript's title, fetched once per id (null when it is gone). */
function useTitle(id: string | undefined): string | null {
  const [title, setTitle] = useState<string | null>(null);
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    let pending = titles.get(id);
    if (pending === undefined) {
      pending = getTranscriptMeta(id).then((result) =>
        result.ok ? result.value.meta.title : null,
      );
      titles.set(id, pending);
    }
    void pending.then((value) => live && setTitle(value));
    return () => {
      live = false;
    };
  }, [id]);
  return title;
}

/** Where this transcript came from: the transcript it was forked from or replays, or a file. */
export function Lineage({ transcript }: { transcript: OpenTranscript }) {
  const { meta, importedFrom } = transcript;
  const replayOf = meta.model.provider === "replay" ? meta.model.id : undefined;
  const parentTitle = useTitle(meta.parentId);
  const replayTitle = useTitle(replayOf);
  return (
    <>
      {meta.parentId !== undefined ? (
        <Related label="forked from" id={meta.parentId} title={parentTitle} testId="forked-from" />
      ) : null}
      {replayOf !== undefined ? (
        <Related label="replay of" id={replayOf} title={replayTitle} testId="replay-of" />
      ) : null}
      {importedFrom?.format === "text" ? (
        <span
          className="min-w-0 shrink-[2] truncate text-fg-subtle"
          data-testid="imported-from"
          title={`Imported from a raw text file; ${importedFrom.dialect?.dialect ?? meta.dialect}: ${importedFrom.dialect?.reason ?? ""}`}
        >
          imported from raw text{" "}
          <span className="font-mono">
            ({importedFrom.dialect?.dialect ?? meta.dialect}
            {importedFrom.dialect?.by === "fallback" ? ", no marker found" : ""})
          </span>
        </span>
      ) : importedFrom !== undefined ? (
        <span
          className="min-w-0 shrink-[2] truncate text-fg-subtle"
          data-testid="imported-from"
          title={`Imported from a file; its id there: ${importedFrom.originalId}`}
        >
          imported from a file{" "}
          <span className="font-mono">({importedFrom.originalId.slice(0, 8)})</span>
        </span>
      ) : null}
    </>
  );
}

function Related(props: { label: string; id: string; title: string | null; testId: string }) {
  const open = (click: MouseEvent) => {
    if (click.metaKey || click.ctrlKey || click.shiftKey || click.button !== 0) return;
    click.preventDefault();
    void openTranscript(props.id);
  };
  return (
    <span className="min-w-0 shrink-[2] truncate text-fg-subtle" data-testid={props.testId}>
      {props.label}{" "}
      <a href={transcriptPath(props.id)} onClick={open} className="text-info hover:underline">
        {props.title ?? props.id.slice(0, 8)}
      </a>
    </span>
  );
}
