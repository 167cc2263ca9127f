"use client";

/**
 * Above this many turns the picker is a list with previous / next instead of a button per
 * turn: a 120-run conversation's buttons filled the Request tab (at 1024×768 all of it, the
 * messages pushed out of sight).
 */
export const TURN_BUTTONS_MAX = 12;

/** The turns that have a request, the one shown, and what picking one does. */
interface TurnChoice {
  turns: readonly number[];
  current: number;
  onPick(turn: number): void;
}

/** Picks a model turn that has a request: a button per turn, or for many a list. */
export function TurnPicker({ turns, current, onPick }: TurnChoice) {
  if (turns.length > TURN_BUTTONS_MAX)
    return <TurnStepper turns={turns} current={current} onPick={onPick} />;
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

// `aria-disabled`, not `disabled`: at the last turn Next keeps the focus (a disabled button
// drops it to the page).
const STEP =
  "rounded px-1.5 py-px font-mono text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg aria-disabled:opacity-40 aria-disabled:hover:bg-transparent";

function TurnStepper({ turns, current, onPick }: TurnChoice) {
  const index = turns.indexOf(current);
  const previous = index > 0 ? turns[index - 1] : undefined;
  const next = index >= 0 && index < turns.length - 1 ? turns[index + 1] : undefined;
  return (
    <fieldset className="flex min-w-0 items-center gap-1" aria-label="Model turns">
      <StepButton label="Previous turn" to={previous} onPick={onPick}>
        ‹
      </StepButton>
      <select
        aria-label="Model turn"
        value={current}
        onChange={(event) => onPick(Number(event.target.value))}
        className="h-6 min-w-0 rounded border border-border bg-bg px-1 font-mono text-[11px] text-fg focus:border-accent"
      >
        {turns.map((turn) => (
          <option key={turn} value={turn}>
            turn {turn}
          </option>
        ))}
      </select>
      {/* Where it is among the turns listed: a long conversation's turn numbers start past 1
          when only its newest records are loaded ("turn 53 of 37" read as a mistake). */}
      <span className="font-mono text-[11px] text-fg-subtle">
        {index + 1} of {turns.length}
      </span>
      <StepButton label="Next turn" to={next} onPick={onPick}>
        ›
      </StepButton>
    </fieldset>
  );
}

/** Previous or next: with no turn `to` go to, shown unavailable and doing nothing. */
function StepButton({
  label,
  to,
  onPick,
  children,
}: {
  label: string;
  to: number | undefined;
  onPick(turn: number): void;
  children: string;
}) {
  return (
    <button
      type="button"
      className={STEP}
      aria-label={label}
      aria-disabled={to === undefined}
      onClick={() => to !== undefined && onPick(to)}
    >
      {children}
    </button>
  );
}
