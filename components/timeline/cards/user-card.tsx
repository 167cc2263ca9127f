import type { UserEvent } from "@/lib/protocol";
import { CardFrame } from "../card-frame";

/** The user's message: a bubble on the right, as in any chat. */
export function UserCard({ event }: { event: UserEvent }) {
  return (
    <CardFrame event={event} className="ml-auto w-fit max-w-[80%]">
      <div className="whitespace-pre-wrap break-words rounded-lg rounded-br-sm border border-border bg-surface-2 px-3 py-2 text-sm text-fg">
        {event.content}
      </div>
    </CardFrame>
  );
}
