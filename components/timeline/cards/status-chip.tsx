import type { ResultStatus } from "@/lib/protocol";

export type CallStatus = ResultStatus | "running" | "no result";

const LOOK: Record<CallStatus, { label: string; className: string }> = {
  running: { label: "running…", className: "border-info/40 text-info" },
  success: { label: "success", className: "border-accent/40 text-accent" },
  failure: { label: "failure", className: "border-danger/50 bg-danger/10 text-danger" },
  skipped: { label: "skipped", className: "border-warn/40 text-warn" },
  "no result": { label: "no result", className: "border-border text-fg-subtle" },
};

/** running… (with a spinner) / success / failure / skipped, or "no result" when the run ended first. */
export function StatusChip({ status }: { status: CallStatus }) {
  const look = LOOK[status];
  return (
    <span
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1 rounded border px-1.5 py-px font-mono text-[11px] leading-4 ${look.className}`}
    >
      {status === "running" ? <Spinner /> : null}
      {look.label}
    </span>
  );
}

function Spinner() {
  return (
    <svg viewBox="0 0 16 16" width="10" height="10" aria-hidden="true" className="animate-spin">
      <circle
        cx="8"
        cy="8"
        r="6"
        fill="none"
        stroke="currentColor"
        strokeOpacity="0.25"
        strokeWidth="2"
      />
      <path d="M14 8a6 6 0 0 0-6-6" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
