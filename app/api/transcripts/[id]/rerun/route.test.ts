import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as stop } from "@/app/api/runs/[runId]/stop/route";
import { POST as run } from "@/app/api/runs/route";
import { readRunStream } from "@/lib/client/run-stream";
import { readConfig } from "@/lib/server/config";
import type { RerunStatus } from "@/lib/server/rerun";
import { getStore } from "@/lib/server/store-instance";
import { GET, POST } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-rerun-"));
  process.env.WIRESCOPE_DEMO_PACE_MS = "0";
});

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const rerun = (id: string, body: unknown) =>
  POST(
    new Request(`http://localhost/api/transcripts/${id}/rerun`, {
      method: "POST",
      body: JSON.stringify(body),
    }),
    context(id),
  );
const status = (id: string) =>
  GET(new Request(`http://localhost/api/transcripts/${id}/rerun`), context(id));

/** Runs a message to its end; answers the transcript's id. */
async function say(message: string, transcriptId?: string): Promise<string> {
  const response = await run(
    new Request("http://localhost/api/runs", {
      method: "POST",
      body: JSON.stringify({
        message,
        dialect: "xml",
        ...(transcriptId === undefined ? {} : { transcriptId }),
      }),
    }),
  );
  let id = transcriptId ?? "";
  if (response.body === null) throw new Error("no body");
  for await (const record of readRunStream(response.body))
    if (record.kind === "run") id = record.transcriptId;
  // The conversation is released once its last records are stored.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return id;
}

async function finished(id: string): Promise<RerunStatus> {
  for (;;) {
    const body = (await (await status(id)).json()) as RerunStatus;
    if (body.state !== "running") return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const usersOf = async (id: string) =>
  ((await getStore(readConfig().dataDir).getTranscript(id))?.records ?? []).flatMap((record) =>
    record.kind === "event" && record.event.type === "user" ? [record.event.content] : [],
  );

describe("POST /api/transcripts/:id/rerun", () => {
  it("runs every user message again, in order, in another dialect, as a new transcript", async () => {
    const source = await say("list the files");
    await say("calculate 6 * 7", source);
    const response = await rerun(source, { mode: "all", dialect: "delimiter" });
    expect(response.status).toBe(202);
    const started = (await response.json()) as RerunStatus & { runId: string };
    expect(started).toMatchObject({ source, total: 2, state: "running" });
    expect(started.transcriptId).not.toBe(source);
    expect(await finished(started.transcriptId)).toMatchObject({
      state: "done",
      done: 2,
      total: 2,
    });
    expect(await usersOf(started.transcriptId)).toEqual(["list the files", "calculate 6 * 7"]);
    const meta = (await getStore(readConfig().dataDir).getTranscript(started.transcriptId))?.meta;
    expect(meta?.dialect).toBe("delimiter");
    expect(meta?.title).toContain("again on demo");
    expect(await usersOf(source)).toEqual(["list the files", "calculate 6 * 7"]);
  });

  it("runs only the first message with mode first", async () => {
    const source = await say("list the files");
    await say("calculate 6 * 7", source);
    const started = (await (await rerun(source, { mode: "first" })).json()) as RerunStatus;
    expect(await finished(started.transcriptId)).toMatchObject({ state: "done", total: 1 });
    expect(await usersOf(started.transcriptId)).toEqual(["list the files"]);
  });

  it("refuses a bad body naming the field, an unknown model, and an unknown transcript", async () => {
    const source = await say("list the files");
    const missing = await rerun(source, {});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/^mode/);
    const dialect = await rerun(source, { mode: "all", dialect: "yaml" });
    expect(((await dialect.json()) as { error: string }).error).toMatch(/^dialect/);
    const extra = await rerun(source, { mode: "all", colour: "red" });
    expect(extra.status).toBe(400);
    const model = await rerun(source, { mode: "all", model: { provider: "nobody" } });
    expect(model.status).toBe(400);
    expect(((await model.json()) as { error: string }).error).toMatch(/^model\.provider/);
    for (const [model, field] of [
      [{ provider: "demo", id: "x".repeat(257) }, "model.id"],
      [{ provider: "demo", id: "scripted\u0000" }, "model.id"],
      [{ provider: "p".repeat(65) }, "model.provider"],
    ] as const) {
      const refused = await rerun(source, { mode: "all", model });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        new RegExp(`^${field.replace(".", "\\.")}: (Too big|must be one line)`),
      );
    }
    expect((await rerun("no-such-id", { mode: "all" })).status).toBe(404);
    expect((await status("no-such-id")).status).toBe(404);
  });
});

describe("POST /api/transcripts/:id/rerun, bounds", () => {
  it("refuses to run more than 100 messages again, naming mode", async () => {
    const store = getStore(readConfig().dataDir);
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
    });
    const records = Array.from({ length: 101 }, (_, index) => ({
      kind: "event" as const,
      event: {
        type: "user" as const,
        id: `u${index}`,
        timestamp: index,
        content: `message ${index}`,
      },
    }));
    await store.appendRecords(meta.id, "r1", records);
    const refused = await rerun(meta.id, { mode: "all" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^mode: .*101 user messages/,
    );
  });
});

describe("POST /api/transcripts/:id/rerun, stopped", () => {
  it("sends no more messages once one of its runs was stopped", async () => {
    const source = await say("list the files");
    await say("demo: parallel batch", source);
    await say("calculate 6 * 7", source);
    // Slow enough that the first run is still going when it is stopped.
    process.env.WIRESCOPE_DEMO_PACE_MS = "40";
    try {
      const started = (await (await rerun(source, { mode: "all" })).json()) as RerunStatus & {
        runId: string;
      };
      const stopped = await stop(new Request("http://localhost", { method: "POST" }), {
        params: Promise.resolve({ runId: started.runId }),
      });
      expect(stopped.status).toBe(200);
      const ended = await finished(started.transcriptId);
      expect(ended).toMatchObject({ state: "failed", done: 0, total: 3 });
      expect(ended.error).toMatch(/^stopped: /);
      expect(await usersOf(started.transcriptId)).toEqual(["list the files"]);
    } finally {
      process.env.WIRESCOPE_DEMO_PACE_MS = "0";
    }
  });
});
