import type { ActionSpec } from "@/lib/protocol";

/**
 * An action-dialect call's execution options as small chips: type, mode, id (when ids are
 * shown), output key, deps.
 */
export function ActionChips({ action, id }: { action: ActionSpec; id?: string | undefined }) {
  const chips: { label: string; value: string }[] = [
    { label: "type", value: action.type },
    { label: "mode", value: action.mode },
  ];
  if (id !== undefined) chips.push({ label: "id", value: id });
  if (action.outputKey !== undefined)
    chips.push({ label: "output_key", value: `$${action.outputKey}` });
  if (action.dependsOn !== undefined && action.dependsOn.length > 0)
    chips.push({ label: "depends_on", value: action.dependsOn.join(", ") });
  if (action.timeout !== undefined) chips.push({ label: "timeout", value: `${action.timeout} s` });
  if (action.retry !== undefined) chips.push({ label: "retry", value: String(action.retry) });
  if (action.onError !== undefined) chips.push({ label: "on_error", value: action.onError });
  return (
    <div className="flex flex-wrap gap-1" data-testid="action-chips">
      {chips.map((chip) => (
        <span
          key={chip.label}
          className="rounded border border-border bg-surface-2/60 px-1.5 py-px font-mono text-[11px] leading-4"
        >
          <span className="text-fg-subtle">{chip.label} </span>
          <span className="text-fg-muted">{chip.value}</span>
        </span>
      ))}
    </div>
  );
}
