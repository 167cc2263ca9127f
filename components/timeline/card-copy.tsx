"use client";

import { CopyButton } from "@/components/copy/copy-button";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { copyTexts } from "./copy-texts";

/**
 * A card's copy buttons, floating over its top-right corner (no space reserved). The card
 * renders them while it is hovered, selected or has the focus, so a long timeline does not
 * carry hundreds of idle buttons.
 */
export function CardCopy({ event }: { event: ProtocolEvent }) {
  const log = usePlayground((state) => state.log);
  // A call's result arrives later: re-render when it does, to offer "Copy result".
  usePlayground((state) => (event.type === "call" ? state.log.resultOf(event.call.id) : null));
  const texts = copyTexts(event, log);
  return (
    <div data-card-copy className="absolute -top-3 right-2 z-10 flex gap-1">
      {texts.map((copy) => (
        <CopyButton
          key={copy.label}
          label={copy.label}
          short={copy.label === "Copy event JSON" ? "JSON" : "Copy"}
          text={copy.text}
        />
      ))}
    </div>
  );
}
