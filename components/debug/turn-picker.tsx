"use client";

/** Buttons for the model turns that have a request: turn 0, 1, … */
export function TurnPicker({
  turns,
  current,
  onPick,
}: {
  turns: readonly number[];
  current: number;
  onPick(turn: number): void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-1" aria-label="Model turn">
      {turns.map((turn) => (
        <button
          key={turn}
          type="button"
          aria-pressed={turn === current}
          onClick={() => onPick(turn)}
          className="rounded px-1.5 py-px font-mono text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg aria-pressed:bg-surface-2 aria-pressed:text-fg aria-pressed:ring-1 aria-pressed:ring-border"
        >
          turn {turn}
        </button>
      ))}
    </fieldset>
  );
}
