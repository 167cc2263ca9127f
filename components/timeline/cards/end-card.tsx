import type { EndEvent } from "@/lib/protocol";
import { CardFrame } from "../card-frame";

/** The model's end marker (or the runtime's): a quiet line, the run is over. */
export function EndCard({ event }: { event: EndEvent }) {
  return (
    <CardFrame event={event} className="flex items-center gap-2 py-0.5 text-[11px] text-fg-subtle">
      <span className="size-1.5 rounded-full bg-fg-subtle" />
      Run ended
    </CardFrame>
  );
}
