"use client";

import { usePlayground } from "@/state/playground-store";
import { useRunConnection } from "@/state/run-connection";

/**
 * Below the last card while a run is live: says the model is still at work even when
 * nothing new is on screen yet (a call's JSON is streaming, a tool is running), or that the
 * page is attaching to the run again (the server restarting, the network cut).
 */
export function RunStatusLine() {
  const status = usePlayground((state) => state.status);
  const cut = useRunConnection((state) => state.cut);
  if (status !== "running" && status !== "stopping") return null;
  return (
    <div
      className="mx-auto flex w-full max-w-[52rem] items-center gap-2 px-5 pb-4 text-[11px] text-fg-subtle"
      data-testid="run-status"
    >
      <span className="size-1.5 animate-pulse rounded-full bg-accent" />
      {cut !== null ? `Reconnecting… (${cut})` : status === "stopping" ? "Stopping…" : "Running…"}
    </div>
  );
}
