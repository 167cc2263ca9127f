import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import { readConfig } from "@/lib/server/config";
import { runRegistry } from "@/lib/server/run-registry";
import { getStore } from "@/lib/server/store-instance";
import { POST as startRun } from "../runs/route";
import { DELETE as remove } from "./[id]/route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-delete-run-"));
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe("DELETE /api/transcripts/:id with a run in progress", () => {
  it("stops the run: the stream ends saying so, the run leaves the active list, its interrupt is stored", async () => {
    const response = await startRun(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body: JSON.stringify({
          dialect: "xml",
          message: "demo: parallel batch",
          model: { provider: "demo", settings: { paceMs: 40 } },
        }),
      }),
    );
    if (response.body === null) throw new Error(`no body: ${response.status}`);
    const records: RunStreamRecord[] = [];
    let answer: unknown;
    for await (const record of readRunStream(response.body)) {
      records.push(record);
      if (record.kind !== "run") continue;
      const deleted = await remove(
        new Request(`http://localhost/api/transcripts/${record.transcriptId}`, {
          method: "DELETE",
        }),
        params(record.transcriptId),
      );
      expect(deleted.status).toBe(200);
      answer = await deleted.json();
      expect(answer).toEqual({ deleted: record.transcriptId, stopped: [record.runId] });
    }
    const [header] = records;
    if (header?.kind !== "run") throw new Error("no run record");
    // The starter's stream ends at the delete, without what the stopped run still writes.
    expect(records.at(-1)).toEqual({ kind: "deleted", transcriptId: header.transcriptId });
    while (runRegistry().active().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const stored = await getStore(readConfig().dataDir).listRunRecords(
      header.transcriptId,
      header.runId,
      0,
    );
    const last = stored.filter((record) => record.kind === "event").at(-1);
    expect(last).toMatchObject({ kind: "event", event: { type: "interrupt", reason: "user" } });
  });
});
