"use client";

import { useCallback, useDeferredValue } from "react";
import type { RespondEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { Markdown } from "../markdown";
import { resolveVariable } from "../variables";

/**
 * The model's answer as markdown, growing as it streams. In the action dialect `$name`
 * placeholders resolve in place as their actions finish.
 */
export function RespondCard({ event }: { event: RespondEvent }) {
  const streaming = usePlayground(
    (state) => state.status === "running" && state.log.events.at(-1)?.id === event.id,
  );
  const usesVariables = usePlayground(
    (state) => state.dialect === "action" && event.content.includes("$"),
  );
  // Values arrive as results do: re-render on new records only when there is something to resolve.
  const log = usePlayground((state) => state.log);
  const version = usePlayground((state) => (usesVariables ? state.version : 0));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version means values may have arrived
  const resolve = useCallback((name: string) => resolveVariable(log, name), [log, version]);
  // Markdown re-parses the whole text: under a fast stream, let React skip to the latest text
  // (a low-priority, interruptible render) instead of parsing every piece on the main thread.
  const text = useDeferredValue(event.content);

  return (
    <CardFrame event={event} className="px-1 py-0.5">
      <Markdown text={text} resolve={usesVariables ? resolve : undefined} />
      {streaming ? (
        <span
          aria-hidden="true"
          className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-fg-muted align-middle"
        />
      ) : null}
    </CardFrame>
  );
}
