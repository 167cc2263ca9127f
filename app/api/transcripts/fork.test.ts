import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TranscriptMeta } from "@/lib/store";
import { POST as startRun } from "../runs/route";
import { POST as fork } from "./[id]/fork/route";
import { json, newTranscript, params, run, transcriptOf, url } from "./route.testing";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-forks-"));
});

describe("fork", () => {
  const forkOf = async (id: string, body: unknown) =>
    fork(new Request(url(`/${id}/fork`), json(body)), params(id));

  it("edits a tool result in a fork and continues from it; the original stays untouched", async () => {
    const id = await newTranscript("list the files");
    const original = await transcriptOf(id);
    const result = original.records.find(
      (record) => record.kind === "event" && record.event.type === "result",
    );
    if (result?.kind !== "event" || result.event.type !== "result") throw new Error("no result");
    const response = await forkOf(id, {
      at: result.seq,
      editResult: {
        callId: result.event.callId,
        content: "Mock: the disk is on fire",
        status: "failure",
      },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      transcript: TranscriptMeta;
      continueWith: Record<string, unknown>;
      resume: boolean;
    };
    expect(body.transcript).toMatchObject({
      parentId: id,
      forkPoint: result.seq,
      title: "list the files · fork",
    });
    expect(body.resume).toBe(true);
    expect(body.continueWith).toEqual({
      transcriptId: body.transcript.id,
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
    });

    const continued = await run({
      ...body.continueWith,
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    const said = continued.flatMap((record) =>
      record.kind === "event" && record.event.type === "respond" ? [record.event.content] : [],
    );
    expect(said.join("")).toContain("Mock: the disk is on fire");
    expect(
      continued.some((record) => record.kind === "event" && record.event.type === "user"),
    ).toBe(false);

    expect(await transcriptOf(id)).toEqual(original);
    const forked = await transcriptOf(body.transcript.id);
    expect(forked.records.length).toBeGreaterThan(result.seq);
  });

  it("edits a user message: the fork ends before it, the client sends the new text", async () => {
    const id = await newTranscript("list the files");
    const response = await forkOf(id, {
      at: 1,
      editUserMessage: "calculate 2+3",
      dialect: "delimiter",
    });
    const body = (await response.json()) as {
      transcript: TranscriptMeta;
      continueWith: Record<string, unknown>;
      resume: boolean;
    };
    expect(body.resume).toBe(false);
    expect(body.continueWith).toMatchObject({ message: "calculate 2+3", dialect: "delimiter" });
    expect(body.transcript).toMatchObject({ forkPoint: 0, dialect: "delimiter" });
    expect(body.transcript.system).toContain("§think:");
    const forked = await transcriptOf(body.transcript.id);
    expect(forked.records).toEqual([]);
    const records = await run({
      ...body.continueWith,
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    expect(
      records.some(
        (record) =>
          record.kind === "event" &&
          record.event.type === "call" &&
          record.event.call.name === "calculate",
      ),
    ).toBe(true);
  });

  it("refuses a fork point that is not there and a continue without a message where none is owed", async () => {
    const id = await newTranscript("hello");
    const bad = await forkOf(id, { at: 9999 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(
      /^at: must be a seq from 0 to \d+\.$/,
    );
    expect((await forkOf("nope", { at: 0 })).status).toBe(404);
    expect((await forkOf(id, { at: 0, editResult: { callId: "c" } })).status).toBe(400);
    // A model no run would accept is refused here, naming it, not offered as a continuation.
    const unknown = await forkOf(id, { at: 1, model: { provider: "evil", id: "x" } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/^model\.provider: /);
    // Bounded as in POST /api/runs: the id is stored in the new transcript's header.
    for (const [model, field] of [
      [{ provider: "demo", id: "x".repeat(257) }, "model.id"],
      [{ provider: "demo", id: "scripted\nsecond line" }, "model.id"],
      [{ provider: "p".repeat(65), id: "scripted" }, "model.provider"],
    ] as const) {
      const refused = await forkOf(id, { at: 1, model });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        new RegExp(`^${field.replace(".", "\\.")}: (Too big|must be one line)`),
      );
    }
    // An edited message is bounded as a run's is, in characters: 150,000 emoji fit.
    const emoji = await forkOf(id, { at: 1, editUserMessage: "😀".repeat(150_000) });
    expect(emoji.status).toBe(201);
    const long = await forkOf(id, { at: 1, editUserMessage: "a".repeat(200_001) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe(
      "editUserMessage: must be at most 200,000 characters; it has 200,001.",
    );
    const replayOfNothing = await forkOf(id, { at: 1, model: { provider: "replay", id: "../x" } });
    expect(replayOfNothing.status).toBeGreaterThanOrEqual(400);
    expect(replayOfNothing.status).toBeLessThan(500);
    expect((await forkOf(id, { at: 1, model: { provider: "demo", id: "scripted" } })).status).toBe(
      201,
    );

    const whole = (await (
      await forkOf(id, { at: (await transcriptOf(id)).records.length })
    ).json()) as {
      transcript: TranscriptMeta;
      resume: boolean;
    };
    expect(whole.resume).toBe(false);
    const refused = await startRun(
      new Request(
        "http://localhost/api/runs",
        json({ dialect: "xml", transcriptId: whole.transcript.id }),
      ),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^message: required, unless/,
    );
  });
});
