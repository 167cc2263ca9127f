"use client";

import type { ThinkEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { useRemembered } from "../card-memory";
import { Disclosure } from "../disclosure";

/**
 * The model's reasoning: open while it streams, closed once anything comes after it. A user
 * who opens or closes it keeps that choice.
 */
export function ThinkCard({ event }: { event: ThinkEvent }) {
  const streaming = usePlayground((state) => state.log.events.at(-1)?.id === event.id);
  const [chosen, choose] = useRemembered(`${event.id}:open`);
  const open = chosen ?? streaming;
  const preview = event.content.trim().split("\n", 1)[0] ?? "";

  return (
    <CardFrame event={event} className="border border-border/70 bg-surface/40">
      <Disclosure
        open={open}
        onToggle={choose}
        label="thinking"
        summary={
          <>
            <span className={`font-medium ${streaming ? "text-fg" : ""}`}>Thinking</span>
            {streaming ? <span className="animate-pulse text-fg-subtle">…</span> : null}
            {!open ? (
              <span className="min-w-0 truncate text-fg-subtle italic">{preview}</span>
            ) : null}
          </>
        }
      >
        <div
          data-testid="think-content"
          className="whitespace-pre-wrap break-words px-3 pb-2 pl-7 text-[13px] text-fg-muted italic"
        >
          {event.content}
        </div>
      </Disclosure>
    </CardFrame>
  );
}
