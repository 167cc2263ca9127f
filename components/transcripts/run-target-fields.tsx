"use client";

import { useModels } from "@/hooks/use-models";
import { DIALECTS, type Dialect } from "@/lib/protocol";
import type { TranscriptMeta } from "@/lib/store/store";

/** A small form field in the fork and "Run again on…" dialogs. */
export const FIELD =
  "rounded border border-border bg-bg px-2 py-1 text-[13px] text-fg focus:border-accent";

/** Where a fork or a re-run runs: null dialect or provider means "as recorded". */
export interface RunTarget {
  dialect: Dialect | null;
  provider: string | null;
  /** The model id when `provider` is set ("" before one is typed). */
  modelId: string;
}

export const AS_RECORDED: RunTarget = { dialect: null, provider: null, modelId: "" };

interface RunTargetFieldsProps {
  recorded: TranscriptMeta;
  value: RunTarget;
  onChange(value: RunTarget): void;
  disabled?: boolean;
}

/**
 * Another dialect or model to run on, "as recorded" by default: the one picker the fork
 * dialog and "Run again on…" share. Picking a provider fills in its default model id.
 */
export function RunTargetFields({ recorded, value, onChange, disabled }: RunTargetFieldsProps) {
  const providers = useModels()?.filter((option) => option.configured && option.id !== "replay");
  return (
    <div
      className="flex flex-wrap items-center gap-2 text-xs text-fg-muted"
      data-testid="run-target-fields"
    >
      <label className="flex items-center gap-1.5">
        Dialect
        <select
          value={value.dialect ?? ""}
          disabled={disabled}
          onChange={(change) =>
            onChange({ ...value, dialect: (change.target.value || null) as Dialect | null })
          }
          className={FIELD}
        >
          {/* A user-defined dialect is kept as recorded: name it, not its family. */}
          <option value="">as recorded ({recorded.definition?.name ?? recorded.dialect})</option>
          {DIALECTS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5">
        Model
        <select
          value={value.provider ?? ""}
          disabled={disabled}
          onChange={(change) => {
            const provider = change.target.value || null;
            const fallback = providers?.find((option) => option.id === provider)?.defaultModel;
            onChange({ ...value, provider, modelId: fallback ?? "" });
          }}
          className={FIELD}
        >
          <option value="">as recorded ({recorded.model.provider})</option>
          {(providers ?? []).map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {value.provider !== null ? (
        <label className="flex items-center gap-1.5">
          Model id
          <input
            value={value.modelId}
            disabled={disabled}
            onChange={(change) => onChange({ ...value, modelId: change.target.value })}
            placeholder="model id"
            spellCheck={false}
            className={`${FIELD} w-40 font-mono text-xs`}
          />
        </label>
      ) : null}
    </div>
  );
}
