"use client";

import { useId, useMemo, useRef, useState } from "react";
import { useModal } from "@/components/dialog/use-modal";
import {
  BUILTIN_DEFINITIONS,
  type DialectDefinition,
  encodeTurn,
  type ProtocolEvent,
} from "@/lib/protocol";
import { systemPrompt } from "@/lib/runtime/system-prompt";
import { DialectPreview } from "./dialect-preview";
import { type Checked, checkDraft, type Draft, draftOf, SLOTS, STARTERS } from "./draft";
import { MAX_SAMPLE } from "./preview-model";
import { removeDefinition, saveDefinition, useSavedDefinitions } from "./saved-dialects";

const FIELD = "rounded border border-border bg-bg px-2 py-1 text-xs text-fg focus:border-accent";
/** More characters than one input by keyboard adds (an IME's word, a dictation): a paste. */
const TYPED_AT_ONCE = 256;

const span = { start: 0, end: 0 };
const base = { id: "", timestamp: 0, turn: 0, span };
/** The sample a definition starts with: written by the encoder, so it is what the parser reads. */
const EXAMPLE: ProtocolEvent[] = [
  { ...base, type: "think", content: "I should list the files, then read the README." },
  { ...base, type: "call", call: { id: "a", name: "list", args: { path: "." } } },
  { ...base, type: "call", call: { id: "b", name: "read", args: { file: "README.md" } } },
  { ...base, type: "execute" },
  { ...base, type: "respond", content: "Reading them now." },
];

/** A built-in starts as a copy named `my-<name>`; a user's definition is edited as it is. */
function startingPoint(initial: DialectDefinition | null): DialectDefinition {
  const builtin = Object.values(BUILTIN_DEFINITIONS).find((item) => item === initial);
  if (initial === null || builtin !== undefined) {
    const from = builtin ?? BUILTIN_DEFINITIONS.xml;
    return { ...from, name: `my-${from.name}` };
  }
  return initial;
}

export function exampleOf(definition: DialectDefinition): string {
  return encodeTurn(definition, EXAMPLE);
}

/**
 * The dialect editor (docs/dialects/custom.md): start from a built-in or a saved definition, rename its
 * markers and call fields, see every problem next to its field (the server's own schema),
 * and a live preview that parses a pasted sample and shows its events and spans.
 */
export function DialectEditor(props: {
  initial: DialectDefinition | null;
  onClose(): void;
  onUse(definition: DialectDefinition): void;
}) {
  const saved = useSavedDefinitions();
  const sampleId = useId();
  const start = startingPoint(props.initial);
  const [draft, setDraft] = useState<Draft>(() => draftOf(start));
  const [sample, setSample] = useState(() => exampleOf(start));
  // A pasted log longer than the preview parses is cut to it: a textarea holding megabytes costs
  // Chromium ~0.4 s of layout per keystroke, and the preview never read past MAX_SAMPLE anyway.
  // Typing in a sample at the limit keeps every character (cut again, each key would drop the
  // last one and move the caret to the end); only an input that adds a lot (a paste) is cut.
  const [cutFrom, setCutFrom] = useState<number | null>(null);
  const editSample = (text: string) => {
    const pasted = text.length > MAX_SAMPLE && text.length - sample.length > TYPED_AT_ONCE;
    if (text.length <= MAX_SAMPLE) setCutFrom(null);
    else if (pasted) setCutFrom(text.length);
    setSample(pasted ? text.slice(0, MAX_SAMPLE) : text);
  };
  const checked = useMemo(() => checkDraft(draft), [draft]);
  const starters = [...STARTERS, ...saved];

  const startFrom = (key: string) => {
    const found = starters.find((item) => item.name === key);
    if (found === undefined) return;
    const isBuiltin = STARTERS.some((item) => item === found);
    const next = isBuiltin ? { ...found, name: `my-${found.name}` } : found;
    setDraft(draftOf(next as DialectDefinition));
    editSample(exampleOf(next as DialectDefinition));
  };
  const setMarker = (path: string, text: string) =>
    setDraft((current) => ({ ...current, markers: { ...current.markers, [path]: text } }));
  const isSaved = saved.some((item) => item.name === draft.name.trim());

  const dialog = useRef<HTMLDivElement>(null);
  useModal(dialog, props.onClose);

  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-auto bg-black/40 py-[6vh]">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label="Dialect editor"
        className="flex w-[64rem] max-w-[calc(100vw-2rem)] flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-2xl"
      >
        {/* A form may not be a dialog (ARIA): it lays its rows out in the dialog's column. */}
        <form
          className="contents"
          onSubmit={(event) => {
            event.preventDefault();
            if (!checked.ok) return;
            saveDefinition(checked.definition);
            props.onUse(checked.definition);
          }}
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <div>
              <h2 className="text-sm font-semibold text-fg">Custom dialect</h2>
              <p className="mt-0.5 text-xs text-fg-muted">
                Rename the markers and the call's JSON fields; the parser, the system prompt and the
                results format follow. Saved in this browser; each run keeps its own copy.
              </p>
            </div>
            <label className="flex items-center gap-2 text-xs text-fg-muted">
              Start from
              <select
                aria-label="Start from"
                value=""
                onChange={(change) => startFrom(change.target.value)}
                className={FIELD}
              >
                <option value="" disabled>
                  choose…
                </option>
                {starters.map((item) => (
                  <option key={item.name} value={item.name}>
                    {item.name} ({item.family})
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="grid min-w-0 gap-4 md:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
            <DefinitionFields
              draft={draft}
              checked={checked}
              setDraft={setDraft}
              setMarker={setMarker}
            />
            <div className="flex min-w-0 flex-col gap-2">
              <div className="flex flex-col gap-1 text-xs text-fg-muted">
                <span className="flex items-center justify-between">
                  <label htmlFor={sampleId}>Sample model output</label>
                  <button
                    type="button"
                    disabled={!checked.ok}
                    onClick={() => checked.ok && editSample(exampleOf(checked.definition))}
                    className="rounded px-1.5 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40"
                  >
                    Reset to the example
                  </button>
                </span>
                <textarea
                  id={sampleId}
                  value={sample}
                  onChange={(change) => editSample(change.target.value)}
                  rows={7}
                  spellCheck={false}
                  aria-describedby={cutFrom === null ? undefined : `${sampleId}-cut`}
                  className={`${FIELD} resize-y font-mono`}
                />
                {cutFrom === null ? null : (
                  <p id={`${sampleId}-cut`} role="status" className="text-[11px] text-fg-muted">
                    The sample keeps its first {MAX_SAMPLE.toLocaleString("en-US")} of{" "}
                    {cutFrom.toLocaleString("en-US")} characters: the preview reads no further.
                  </p>
                )}
              </div>
              {checked.ok ? (
                <DialectPreview definition={checked.definition} sample={sample} />
              ) : (
                <p className="text-xs text-fg-muted">Fix the marked fields to see the preview.</p>
              )}
              {checked.ok ? (
                <details className="text-xs text-fg-muted">
                  <summary className="cursor-pointer">System prompt rules and example</summary>
                  <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded-md bg-surface-2 p-2 font-mono text-[11px] text-fg">
                    {systemPrompt(checked.definition, [])}
                  </pre>
                </details>
              ) : null}
            </div>
          </div>
          <div className="flex items-center justify-end gap-2">
            {isSaved ? (
              <button
                type="button"
                onClick={() => removeDefinition(draft.name.trim())}
                className="mr-auto rounded px-2.5 py-1 text-xs text-danger hover:bg-surface-2"
              >
                Delete saved “{draft.name.trim()}”
              </button>
            ) : null}
            <button
              type="button"
              onClick={props.onClose}
              className="rounded px-2.5 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
            >
              Cancel
            </button>
            <button
              type="button"
              disabled={!checked.ok}
              onClick={() => checked.ok && saveDefinition(checked.definition)}
              className="rounded-md border border-border px-3 py-1 text-xs text-fg hover:bg-surface-2 disabled:opacity-40"
            >
              Save
            </button>
            <button
              type="submit"
              disabled={!checked.ok}
              className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-accent-fg hover:opacity-90 disabled:opacity-40"
            >
              Save and use
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

function DefinitionFields(props: {
  draft: Draft;
  checked: Checked;
  setDraft(update: (draft: Draft) => Draft): void;
  setMarker(path: string, text: string): void;
}) {
  const { draft, checked } = props;
  const issue = (path: string) => (checked.ok ? undefined : checked.issues.get(path));
  const field = (label: string, path: string, value: string, onChange: (text: string) => void) => {
    const problem = issue(path);
    return (
      <label key={path} className="flex min-w-0 flex-col gap-0.5 text-xs text-fg-muted">
        {label}
        <input
          value={value}
          onChange={(change) => onChange(change.target.value)}
          aria-invalid={problem !== undefined}
          spellCheck={false}
          className={`${FIELD} font-mono ${problem === undefined ? "" : "border-danger"}`}
        />
        {problem === undefined ? null : (
          <span role="alert" className="text-[11px] text-danger">
            {problem}
          </span>
        )}
      </label>
    );
  };
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="grid grid-cols-[1fr_auto] items-end gap-2">
        {field("Name", "name", draft.name, (name) => props.setDraft((d) => ({ ...d, name })))}
        <span
          className="pb-1.5 font-mono text-xs text-fg-subtle"
          title="The family comes from the starting point"
        >
          {draft.family} family
        </span>
      </div>
      <fieldset className="grid grid-cols-2 gap-x-2 gap-y-1.5" aria-label="Markers">
        <legend className="mb-1 text-xs font-medium text-fg">Markers</legend>
        {SLOTS[draft.family].map((slot) =>
          field(
            slot.optional ? `${slot.label} (optional)` : slot.label,
            slot.path,
            draft.markers[slot.path] ?? "",
            (text) => props.setMarker(slot.path, text),
          ),
        )}
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-2" aria-label="Call fields">
        <legend className="mb-1 text-xs font-medium text-fg">Call JSON fields</legend>
        {field("tool name", "fields.name", draft.fieldName, (fieldName) =>
          props.setDraft((d) => ({ ...d, fieldName })),
        )}
        {field("arguments", "fields.args", draft.fieldArgs, (fieldArgs) =>
          props.setDraft((d) => ({ ...d, fieldArgs })),
        )}
      </fieldset>
      {!checked.ok && checked.issues.has("") ? (
        <p role="alert" className="text-xs text-danger">
          {checked.issues.get("")}
        </p>
      ) : null}
    </div>
  );
}
