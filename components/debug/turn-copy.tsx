"use client";

import { CopyButton } from "@/components/copy/copy-button";
import { usePlayground } from "@/state/playground-store";

/** Copies one model turn's raw wire text: the selected turn, else the latest. */
export function TurnCopy() {
  const log = usePlayground((state) => state.log);
  const selectedTurn = usePlayground((state) => state.selectedTurn);
  // Re-render when turns arrive (the label names the turn).
  usePlayground((state) => state.log.turns.size);
  const turns = [...log.turns.keys()];
  const turn =
    selectedTurn !== null && log.turns.has(selectedTurn) ? selectedTurn : turns[turns.length - 1];
  if (turn === undefined) return null;
  return (
    <CopyButton
      label={`Copy turn ${turn} raw text`}
      short={`Copy turn ${turn}`}
      text={() => log.turns.get(turn)?.raw ?? ""}
    />
  );
}
