import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import type { TranscriptRecord } from "../protocol/records";
import { RunRequestError } from "../server/runs";
import { createReplayModel } from "./replay-model";
import { replaySourceOf } from "./replay-source";
import { recordRun } from "./testing";

const chunksByTurn = (records: readonly TranscriptRecord[]) =>
  records.flatMap((record) => (record.kind === "chunk" ? [[record.turn, record.text]] : []));

/** What a run did, without ids and times: merged events' types, texts, calls and results. */
function conversation(records: readonly TranscriptRecord[]): unknown[] {
  const events = records.flatMap((record): ProtocolEvent[] =>
    record.kind === "event" ? [record.event] : [],
  );
  return mergePieces(events).flatMap((event) => {
    switch (event.type) {
      case "user":
      case "think":
      case "respond":
        return [[event.type, event.content]];
      case "call":
        return [[event.type, event.call.name, event.call.args]];
      case "result":
        return [[event.type, event.payload.tool, event.payload.status, event.payload.content]];
      case "error":
        return [[event.type, event.code]];
      default:
        return [[event.type]];
    }
  });
}

describe("the replay provider", () => {
  it.each([
    ["xml", "demo: parallel batch"],
    ["delimiter", "read README.md"],
    ["action", "demo: dependencies"],
  ] as const)(
    "%s · %s: plays the recorded chunks turn by turn, tools run live",
    async (dialect, message) => {
      const recorded = await recordRun({ message, dialect });
      const replayed = await recordRun(
        { message, dialect, model: { provider: "replay", id: recorded.transcript.meta.id } },
        recorded.store,
      );
      expect(replayed.transcript.meta.model).toEqual({
        provider: "replay",
        id: recorded.transcript.meta.id,
      });
      expect(chunksByTurn(replayed.records)).toEqual(chunksByTurn(recorded.records));
      expect(conversation(replayed.records)).toEqual(conversation(recorded.records));
    },
  );

  it("replays a conversation of several runs, message by message", async () => {
    const first = await recordRun({ message: "list the files", dialect: "xml" });
    const source = first.transcript.meta.id;
    const original = await recordRun(
      { message: "read README.md", dialect: "xml", transcriptId: source },
      first.store,
    );
    const model = { provider: "replay", id: source };
    const one = await recordRun({ message: "list the files", dialect: "xml", model }, first.store);
    const two = await recordRun(
      { message: "read README.md", dialect: "xml", model, transcriptId: one.transcript.meta.id },
      first.store,
    );
    expect(chunksByTurn(two.records)).toEqual(chunksByTurn(original.records));
    expect(conversation(two.records)).toEqual(conversation(original.records));
  });

  it("refuses an unknown transcript, a missing id and another dialect before streaming", async () => {
    const recorded = await recordRun({ message: "hello", dialect: "xml" });
    const id = recorded.transcript.meta.id;
    const attempt = (model: { provider: string; id?: string }, dialect: "xml" | "action" = "xml") =>
      recordRun({ message: "hello", dialect, model }, recorded.store).then(
        () => null,
        (error: unknown) => error,
      );
    expect(await attempt({ provider: "replay", id: "nope" })).toMatchObject({
      status: 404,
      message: expect.stringMatching(/^model\.id: no transcript "nope"/),
    });
    expect(await attempt({ provider: "replay" })).toMatchObject({
      status: 400,
      message: "model.id: name the transcript to replay.",
    });
    const other = await attempt({ provider: "replay", id }, "action");
    expect(other).toBeInstanceOf(RunRequestError);
    expect(other).toMatchObject({
      status: 400,
      message: expect.stringMatching(/recorded in the xml dialect/),
    });
  });

  it("answers a point the recording never reached with an error part", async () => {
    const recorded = await recordRun({ message: "hello", dialect: "xml" });
    const model = createReplayModel(replaySourceOf(recorded.transcript));
    const { stream } = await model.doStream({
      prompt: [
        { role: "system", content: "s" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
        { role: "assistant", content: [{ type: "text", text: "a" }] },
        { role: "user", content: [{ type: "text", text: "again" }] },
      ],
    });
    const parts: unknown[] = [];
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      parts.push(next.value);
    expect(parts).toContainEqual({
      type: "error",
      error: expect.objectContaining({ message: expect.stringMatching(/no recorded model turn/) }),
    });
  });
});
