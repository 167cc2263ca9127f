import type { ReactNode } from "react";

const LOOK: Record<string, { className: string; title: (name: string) => string }> = {
  value: {
    className:
      "rounded-sm bg-accent/10 px-0.5 text-fg decoration-accent/50 underline decoration-dotted underline-offset-2",
    title: (name) => `$${name}`,
  },
  pending: {
    className: "rounded border border-info/40 px-1 font-mono text-[12px] text-info",
    title: (name) => `$${name} is still running`,
  },
  failed: {
    className: "rounded border border-danger/40 px-1 font-mono text-[12px] text-danger",
    title: (name) => `The action that stores $${name} did not succeed`,
  },
  unknown: {
    className: "rounded border border-warn/50 bg-warn/10 px-1 font-mono text-[12px] text-warn",
    title: (name) => `No action of this run stores $${name}: it stays as written`,
  },
};

/** A `$name` in a response: its value, a placeholder while it runs, or a warning. */
export function VariableChip({
  name,
  state,
  children,
}: {
  name: string;
  state: string;
  children: ReactNode;
}) {
  const look = LOOK[state] ?? LOOK.unknown;
  return (
    <span
      data-variable={name}
      data-state={state}
      title={look?.title(name)}
      className={look?.className}
    >
      {children}
      {state === "pending" ? " …" : null}
    </span>
  );
}
