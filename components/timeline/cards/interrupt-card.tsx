import type { InterruptEvent, InterruptReason } from "@/lib/protocol";
import { CardFrame } from "../card-frame";

const REASON: Record<InterruptReason, string> = {
  user: "Interrupted by you",
  disconnect: "Interrupted: client disconnected",
  timeout: "Interrupted: timeout",
  crash: "Interrupted: the server stopped during this run",
};

/** The run was stopped before it finished. */
export function InterruptCard({ event }: { event: InterruptEvent }) {
  return (
    <CardFrame
      event={event}
      className="flex items-center gap-2 border border-warn/40 bg-warn/10 px-3 py-1.5 text-[13px] text-warn"
    >
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <rect x="3" y="3" width="10" height="10" rx="1.5" fill="currentColor" />
      </svg>
      {REASON[event.reason]}
    </CardFrame>
  );
}
