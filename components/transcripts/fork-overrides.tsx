"use client";

import { useModels } from "@/hooks/use-models";
import { DIALECTS, type Dialect } from "@/lib/protocol";
import type { TranscriptMeta } from "@/lib/store/store";

/** A small form field in the fork dialog. */
export const FIELD =
  "rounded border border-border bg-bg px-2 py-1 text-[13px] text-fg focus:border-accent focus:outline-none";

interface ForkOverridesProps {
  recorded: TranscriptMeta;
  /** null: as recorded. */
  dialect: Dialect | null;
  onDialect(dialect: Dialect | null): void;
  provider: string | null;
  modelId: string;
  onModel(provider: string | null, modelId: string): void;
}

/** Another dialect or model for the fork's run; "as recorded" by default. */
export function ForkOverrides(props: ForkOverridesProps) {
  const { recorded, dialect, provider, modelId } = props;
  const providers = useModels()?.filter((option) => option.configured && option.id !== "replay");
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
      <label className="flex items-center gap-1.5">
        Dialect
        <select
          aria-label="Fork dialect"
          value={dialect ?? ""}
          onChange={(change) => props.onDialect((change.target.value || null) as Dialect | null)}
          className={FIELD}
        >
          <option value="">as recorded ({recorded.dialect})</option>
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
          aria-label="Fork model"
          value={provider ?? ""}
          onChange={(change) => {
            const next = change.target.value || null;
            const fallback = providers?.find((option) => option.id === next)?.defaultModel;
            props.onModel(next, fallback ?? "");
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
      {provider !== null ? (
        <input
          aria-label="Fork model id"
          value={modelId}
          onChange={(change) => props.onModel(provider, change.target.value)}
          placeholder="model id"
          className={`${FIELD} w-40 font-mono text-xs`}
        />
      ) : null}
    </div>
  );
}
