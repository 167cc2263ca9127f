import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store";
import { replaySourceFor } from "./replay-provider";
import { replaySourceOf } from "./replay-source";
import { recordRun } from "./testing";

describe("replaySourceFor", () => {
  it("reads the source from store pages: the same as from the whole transcript", async () => {
    const store = createMemoryStore();
    const recorded = await recordRun({ message: "demo: parallel batch", dialect: "xml" }, store);
    const loaded = await replaySourceFor(
      { provider: "replay", id: recorded.transcript.meta.id },
      store,
    );
    expect(loaded).toEqual({ ok: true, source: replaySourceOf(recorded.transcript) });
    if (loaded.ok) expect(loaded.source?.turns.length).toBeGreaterThan(1);
    expect(await replaySourceFor({ provider: "replay", id: "missing" }, store)).toMatchObject({
      ok: false,
      status: 404,
    });
  });
});
