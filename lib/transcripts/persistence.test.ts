/**
 * Reliability of stored transcripts (issue 5): a run killed with SIGKILL mid-stream leaves a
 * transcript that opens with every record up to the kill and an intact database; many runs at
 * once on one store do not mix their records.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "../client/run-stream";
import type { TranscriptRecord } from "../protocol/records";
import { safeParseJson } from "../protocol/safe-json";
import { replayRecords } from "../replay/replay";
import { readConfig } from "../server/config";
import { startRun } from "../server/runs";
import { openSqliteStore, type StoredRecord } from "../store";
import { exportJsonl, parseJsonl } from "./jsonl";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "wirescope-persistence-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const plain = (records: readonly StoredRecord[]): TranscriptRecord[] =>
  records.map(({ seq: _seq, runId: _runId, ...record }) => record);

describe("transcript persistence", () => {
  it("a run killed with SIGKILL mid-stream leaves a gapless prefix in an intact database", async () => {
    const path = join(directory, "crash.db");
    const script = fileURLToPath(new URL("./run-crash-child.ts", import.meta.url));
    // `node --import tsx`: one process, so SIGKILL hits the writer itself, not a wrapper.
    const child = spawn(process.execPath, ["--import", "tsx", script, path, directory], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      child.on("exit", (_code, signal) => resolve(signal));
    });
    let transcriptId = "";
    const streamed: TranscriptRecord[] = [];
    const acknowledged = await new Promise<number>((resolve, reject) => {
      let buffer = "";
      child.stdout.on("data", (data: Buffer) => {
        buffer += data.toString();
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) {
          const [word, ...rest] = line.split(" ");
          const value = rest.join(" ");
          if (word === "transcript") transcriptId = value;
          if (word === "record") {
            const parsed = safeParseJson(value);
            if (parsed.ok) streamed.push(parsed.value as TranscriptRecord);
          }
          if (word === "finished") reject(new Error("The run finished before it was killed."));
          if (word === "committed" && Number(value) >= 40 && !child.killed) {
            child.kill("SIGKILL");
            resolve(Number(value));
          }
        }
      });
      child.on("exit", (code, signal) => {
        if (signal === null) reject(new Error(`The run exited on its own (${code}): ${stderr}`));
      });
    });
    expect(await exited).toBe("SIGKILL");

    const store = openSqliteStore({ path });
    expect((await store.diagnostics()).integrity).toBe("ok");
    const transcript = await store.getTranscript(transcriptId);
    if (transcript === null) throw new Error("The transcript is gone.");
    const { records } = transcript;
    // Everything committed before the kill is there, numbered without gaps.
    expect(records.length).toBeGreaterThanOrEqual(acknowledged);
    expect(records.map((record) => record.seq)).toEqual(records.map((_record, index) => index + 1));
    // Stored and streamed records are prefixes of the same run (either may be ahead).
    const shared = Math.min(records.length, streamed.length);
    expect(shared).toBeGreaterThan(0);
    expect(plain(records).slice(0, shared)).toEqual(streamed.slice(0, shared));
    expect(records[0]).toMatchObject({
      kind: "event",
      event: { type: "user", content: "demo: dependencies" },
    });
    // It opens: it exports, imports, and replays through the parser as it was recorded.
    expect(parseJsonl(exportJsonl(transcript)).ok).toBe(true);
    expect(replayRecords("xml", plain(records)).diffs).toEqual([]);
    await store.close();
  }, 30_000);

  it("eight runs at once on one store write their transcripts without interfering", async () => {
    const store = openSqliteStore({ path: join(directory, "many.db") });
    const config = readConfig({ WIRESCOPE_DATA_DIR: directory, WIRESCOPE_DEMO_PACE_MS: "1" });
    const messages = [
      "list the files",
      "read README.md",
      "demo: parallel batch",
      "calculate 12 * 12",
      "demo: dependencies",
      "search for average",
      "hello",
      "demo: invalid json",
    ];
    const runs = await Promise.all(
      messages.map(async (message) => {
        const { body, transcriptId, runId } = await startRun(
          { message, dialect: "xml" },
          { store, config },
        );
        const streamed: RunStreamRecord[] = [];
        for await (const record of readRunStream(body)) streamed.push(record);
        return { message, transcriptId, runId, streamed };
      }),
    );
    expect(new Set(runs.map((run) => run.transcriptId)).size).toBe(8);
    for (const run of runs) {
      const transcript = await store.getTranscript(run.transcriptId);
      const records = transcript?.records ?? [];
      expect(transcript?.meta.title).toBe(run.message);
      records.forEach((record, index) => {
        expect(record.seq).toBe(index + 1);
        expect(record.runId).toBe(run.runId);
      });
      expect(plain(records)).toEqual(run.streamed.filter((record) => record.kind !== "run"));
      expect(records[0]).toMatchObject({ event: { type: "user", content: run.message } });
      expect(replayRecords("xml", plain(records)).diffs).toEqual([]);
    }
    expect((await store.diagnostics()).integrity).toBe("ok");
    await store.close();
  }, 30_000);
});
