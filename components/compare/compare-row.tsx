"use client";

import { memo } from "react";
import type { CompareRow, EventPair } from "@/lib/compare";
import { DiffText } from "./diff-text";
import { describeEvent } from "./event-text";
import { useTextDiff } from "./use-text-diff";

const STATUS_LABEL: Record<CompareRow["status"], string> = {
  same: "same",
  changed: "differs",
  "only-a": "only in A",
  "only-b": "only in B",
};

const STATUS_STYLE: Record<CompareRow["status"], string> = {
  same: "text-fg-subtle",
  changed: "text-warn",
  "only-a": "text-danger",
  "only-b": "text-accent",
};

/** One aligned row: the user message above it (if it starts an exchange), then each side's turn. */
export const CompareRowView = memo(function CompareRowView(props: {
  row: CompareRow;
  index: number;
  current: boolean;
}) {
  const { row, index, current } = props;
  const diff = useTextDiff(row);
  const label = `Row ${index + 1}: ${turnLabel(row)}, ${STATUS_LABEL[row.status]}`;
  return (
    <section
      aria-label={label}
      tabIndex={-1}
      data-testid="compare-row"
      data-status={row.status}
      data-row={index}
      className={`border-b border-border px-3 py-2 outline-none ${current ? "bg-surface-2/70 ring-1 ring-inset ring-info" : ""}`}
    >
      <header className="mb-1.5 flex items-center gap-2 text-[11px]">
        <span className="font-mono text-fg-subtle">{turnLabel(row)}</span>
        <span className={`font-medium ${STATUS_STYLE[row.status]}`} data-testid="row-status">
          {STATUS_LABEL[row.status]}
        </span>
        {diff !== null && diff.mode !== "char" && diff.mode !== "equal" ? (
          <span
            className="text-fg-subtle"
            title="The texts differ too much for a character diff in bounded time"
          >
            ({diff.mode === "line" ? "marked by line" : "too different to mark"})
          </span>
        ) : null}
      </header>
      {row.user !== undefined ? <UserLine user={row.user} /> : null}
      <div className="grid grid-cols-2 gap-3">
        <Side row={row} side="a" ranges={diff?.a ?? null} />
        <Side row={row} side="b" ranges={diff?.b ?? null} />
      </div>
    </section>
  );
});

function turnLabel(row: CompareRow): string {
  const a = row.a?.turn;
  const b = row.b?.turn;
  const name = (turn: number | null | undefined) =>
    turn === undefined ? "—" : turn === null ? "no turn" : `turn ${turn}`;
  return a === b ? name(a) : `${name(a)} · ${name(b)}`;
}

function UserLine({ user }: { user: { a?: string; b?: string } }) {
  const same = user.a === user.b;
  return (
    <div className="mb-2 grid grid-cols-2 gap-3 text-[13px]">
      {(["a", "b"] as const).map((side) => (
        <p
          key={side}
          className={`m-0 rounded border px-2 py-1 break-words whitespace-pre-wrap ${same ? "border-border" : "border-warn"} ${user[side] === undefined ? "text-fg-subtle italic" : "text-fg"}`}
        >
          <span className="mr-1.5 text-[11px] font-medium text-fg-muted">user</span>
          {user[side] === undefined ? "(no message)" : clip(user[side] ?? "")}
        </p>
      ))}
    </div>
  );
}

const clip = (text: string) => (text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text);

function Side(props: {
  row: CompareRow;
  side: "a" | "b";
  ranges: readonly { start: number; end: number }[] | null;
}) {
  const { row, side, ranges } = props;
  const turn = row[side];
  if (turn === undefined)
    return (
      <div
        className="rounded border border-dashed border-border px-2 py-3 text-center text-[12px] text-fg-subtle"
        data-side={side}
      >
        no turn here
      </div>
    );
  return (
    <div className="min-w-0" data-side={side}>
      <div className="max-h-[60vh] overflow-auto rounded bg-wire-bg px-2 py-1.5">
        <DiffText text={turn.raw} ranges={ranges} side={side} />
      </div>
      <ul className="m-0 mt-1.5 list-none p-0" aria-label={`Events of side ${side.toUpperCase()}`}>
        {row.events.map((pair, index) => (
          <EventLine key={pair.a?.id ?? pair.b?.id ?? index} pair={pair} side={side} />
        ))}
      </ul>
    </div>
  );
}

function EventLine({ pair, side }: { pair: EventPair; side: "a" | "b" }) {
  const event = pair[side];
  if (event === undefined)
    return <li className="h-5 border-l-2 border-transparent" aria-hidden data-empty />;
  const oneSided = pair.fields === undefined;
  const fields = pair.fields ?? [];
  const differs = oneSided || fields.length > 0;
  return (
    <li
      data-testid="compare-event"
      data-event-type={event.type}
      data-differs={differs ? "true" : "false"}
      data-fields={fields.join(" ")}
      className={`flex min-h-5 min-w-0 items-baseline gap-1.5 border-l-2 py-px pl-1.5 text-[12px] ${differs ? (side === "a" ? "border-danger bg-danger/10" : "border-accent bg-accent/10") : "border-transparent"}`}
    >
      <span className="shrink-0 font-mono text-[11px] text-fg-muted">{event.type}</span>
      <span className="min-w-0 truncate text-fg" title={describeEvent(event)}>
        {describeEvent(event)}
      </span>
      {oneSided ? (
        <span className="ml-auto shrink-0 text-[11px] font-medium text-warn">
          only {side === "a" ? "A" : "B"}
        </span>
      ) : fields.length > 0 ? (
        <span className="ml-auto shrink-0 text-[11px] font-medium text-warn">
          ≠ {fields.join(", ")}
        </span>
      ) : null}
    </li>
  );
}
