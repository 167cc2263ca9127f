import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore } from "../store/memory-store";
import { storeSink } from "./sink";

const user = (turn: number): TranscriptRecord => ({
  kind: "event",
  event: { type: "user", id: `t${turn}-sent-1`, timestamp: 1, content: `message ${turn}` },
});

describe("storeSink", () => {
  it("creates a transcript whose creation failed on its conversation's next turn", async () => {
    // The database was down for the conversation's first call, and back for the next.
    const store = createMemoryStore();
    const createTranscript = store.createTranscript.bind(store);
    let down = true;
    store.createTranscript = async (input) => {
      if (down) throw new Error("connect ECONNREFUSED");
      return createTranscript(input);
    };
    const logged: string[] = [];
    const sink = storeSink(store, (message) => logged.push(message));
    const create = {
      id: "captured-1",
      title: "message 0",
      dialect: "xml" as const,
      model: { provider: "openai", id: "m" },
      source: "capture" as const,
    };
    const stop = () => {};

    sink.startTurn({ transcriptId: "captured-1", runId: "run-0", turn: 0, stop, create });
    sink.append("run-0", [user(0)]);
    await sink.finishTurn("run-0");
    expect(logged).toEqual(["could not create a captured transcript"]);
    expect(await store.getTranscript("captured-1")).toBeNull();

    down = false;
    // Only a conversation's first turn carries `create`.
    sink.startTurn({ transcriptId: "captured-1", runId: "run-1", turn: 1, stop });
    sink.append("run-1", [user(1)]);
    await sink.finishTurn("run-1");
    const stored = await store.getTranscript("captured-1");
    expect(stored?.meta).toMatchObject({ title: "message 0", source: "capture" });
    expect(stored?.records.map((record) => record.kind === "event" && record.event.id)).toEqual([
      "t1-sent-1",
    ]);
  });
});
