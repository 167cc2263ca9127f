"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { getTranscriptMeta, listTranscripts } from "@/components/transcripts/api";
import { formatSavedAt } from "@/components/transcripts/format-date";
import type { TranscriptSummary } from "@/lib/store/store";

/** Choose the transcripts to compare: a searchable list for each side not given in the URL. */
export function TranscriptPicker(props: { a?: string | undefined; b?: string | undefined }) {
  const router = useRouter();
  const [a, setA] = useState(props.a);
  const [b, setB] = useState(props.b);
  useEffect(() => {
    if (a !== undefined && b !== undefined)
      router.push(`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  }, [a, b, router]);
  return (
    <div className="grid min-h-0 flex-1 grid-cols-1 gap-4 overflow-y-auto p-4 md:grid-cols-2">
      <Side label="A" chosen={a} onChoose={setA} />
      <Side label="B" chosen={b} onChoose={setB} exclude={a} />
    </div>
  );
}

function Side(props: {
  label: string;
  chosen: string | undefined;
  exclude?: string | undefined;
  onChoose(id: string | undefined): void;
}) {
  const [query, setQuery] = useState("");
  const [list, setList] = useState<TranscriptSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      void listTranscripts(query).then((result) => {
        if (!live) return;
        if (result.ok) {
          setList(result.value.transcripts);
          setError(null);
        } else setError(result.error);
      });
    }, 150);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [query]);
  const listed = list?.find((item) => item.id === props.chosen)?.title;
  // Chosen from the URL and not on the list's first page (an older transcript): its title is
  // asked for, so the side is named as the user knows it, not by its id.
  const [named, setNamed] = useState<{ id: string; title: string } | null>(null);
  useEffect(() => {
    const id = props.chosen;
    if (id === undefined || list === null || listed !== undefined) return;
    let live = true;
    void getTranscriptMeta(id).then((result) => {
      if (live && result.ok) setNamed({ id, title: result.value.meta.title });
    });
    return () => {
      live = false;
    };
  }, [props.chosen, list, listed]);
  const title =
    listed ?? (named !== null && named.id === props.chosen ? named.title : props.chosen);
  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="min-w-0"
      data-testid={`pick-${props.label.toLowerCase()}`}
    >
      <h2 id={`${inputId}-title`} className="m-0 mb-2 text-[14px] font-medium text-fg">
        Transcript {props.label}
        {props.chosen !== undefined ? (
          <span className="ml-2 font-normal text-fg-muted">
            {title}{" "}
            <button
              type="button"
              className="text-info hover:underline"
              onClick={() => props.onChoose(undefined)}
            >
              change
            </button>
          </span>
        ) : null}
      </h2>
      {props.chosen === undefined ? (
        <>
          <label htmlFor={inputId} className="mb-1 block text-[12px] text-fg-muted">
            Search transcripts
          </label>
          <input
            id={inputId}
            type="search"
            value={query}
            onChange={(change) => setQuery(change.target.value)}
            className="mb-2 w-full rounded border border-border bg-bg px-2 py-1 text-[13px] text-fg"
          />
          {error !== null ? (
            <p role="alert" className="text-[13px] text-danger">
              {error}
            </p>
          ) : null}
          <ul className="m-0 list-none p-0">
            {(list ?? [])
              .filter((item) => item.id !== props.exclude)
              .map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    onClick={() => props.onChoose(item.id)}
                    className="block w-full rounded px-2 py-1 text-left text-[13px] text-fg hover:bg-surface-2 focus-visible:outline focus-visible:outline-1 focus-visible:outline-accent"
                  >
                    {item.title}
                    <span className="ml-2 font-mono text-[11px] text-fg-subtle">
                      {item.definition?.name ?? item.dialect} · {item.model.provider} ·{" "}
                      {formatSavedAt(item.updatedAt, Date.now())}
                    </span>
                  </button>
                </li>
              ))}
            {list !== null && list.length === 0 ? (
              <li className="text-[13px] text-fg-subtle">No transcripts match.</li>
            ) : null}
          </ul>
        </>
      ) : null}
    </section>
  );
}
