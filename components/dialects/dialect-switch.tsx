"use client";

import { lazy, Suspense, useState } from "react";
import { switchDialect } from "@/components/transcripts/navigation";
import {
  BUILTIN_DEFINITIONS,
  baseDialect,
  DIALECTS,
  type Dialect,
  type DialectDefinition,
  sameDialect,
} from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { useSavedDefinitions } from "./saved-dialects";

// Opened on demand: the editor checks drafts with the definition schemas (zod), which the
// page then does not load before it is used.
const DialectEditor = lazy(() =>
  import("./dialect-editor").then((module) => ({ default: module.DialectEditor })),
);

/** The built-in definition of a dialect that has one (`action` has none). */
function builtinDefinition(dialect: Dialect): DialectDefinition | null {
  return dialect === "action" ? null : BUILTIN_DEFINITIONS[dialect];
}

type Option =
  | { key: string; label: string; kind: "builtin"; dialect: Dialect }
  | { key: string; label: string; kind: "custom"; definition: DialectDefinition };

/**
 * The dialect switch: the built-ins, then the saved definitions (and the open transcript's
 * own definition when it is not saved here), and a button that opens the dialect editor.
 */
export function DialectSwitch({ disabled }: { disabled: boolean }) {
  const dialect = usePlayground((state) => state.dialect);
  const definition = usePlayground((state) => state.definition);
  const saved = useSavedDefinitions();
  const [editing, setEditing] = useState(false);

  const options: Option[] = [
    ...DIALECTS.map((name): Option => ({ key: name, label: name, kind: "builtin", dialect: name })),
    ...saved.map(
      (item): Option => ({
        key: `custom:${item.name}`,
        label: item.name,
        kind: "custom",
        definition: item,
      }),
    ),
  ];
  if (definition !== null && !saved.some((item) => sameDialect(item, definition)))
    options.push({ key: "custom:current", label: definition.name, kind: "custom", definition });

  const checked = (option: Option) =>
    option.kind === "builtin"
      ? definition === null && option.dialect === dialect
      : definition !== null && sameDialect(option.definition, definition);

  const choose = (option: Option) => {
    // A conversation keeps its dialect (fork it to switch); a new one starts here, and says so.
    if (option.kind === "builtin") switchDialect(option.dialect);
    else switchDialect(baseDialect(option.definition), option.definition);
  };

  return (
    <>
      <fieldset
        className="flex min-w-0 items-center overflow-x-auto rounded-md border border-border p-0.5"
        aria-label="Dialect"
        disabled={disabled}
      >
        {options.map((option) => (
          <label
            key={option.key}
            title={
              option.kind === "custom"
                ? `Custom dialect (${option.definition.family} family)`
                : undefined
            }
            className={`cursor-pointer whitespace-nowrap rounded px-2 py-0.5 font-mono text-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-solid has-[:focus-visible]:outline-accent has-[:focus-visible]:-outline-offset-2 ${checked(option) ? "bg-surface-2 text-fg" : "text-fg-muted hover:text-fg"} ${option.kind === "custom" ? "italic" : ""}`}
          >
            <input
              type="radio"
              name="dialect"
              value={option.key}
              checked={checked(option)}
              onChange={() => choose(option)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
        <button
          type="button"
          onClick={() => setEditing(true)}
          className="ml-0.5 rounded px-1.5 py-0.5 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:-outline-offset-2"
          aria-label="Edit custom dialects"
          title="Define your own dialect"
        >
          +
        </button>
      </fieldset>
      {editing ? (
        <Suspense fallback={null}>
          <DialectEditor
            initial={definition ?? builtinDefinition(dialect)}
            onClose={() => setEditing(false)}
            onUse={(chosen) => {
              setEditing(false);
              choose({ key: "custom", label: chosen.name, kind: "custom", definition: chosen });
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
