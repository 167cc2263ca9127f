/**
 * An import cut off by its server's death (SIGKILL mid-file, not a refusal or a client that
 * went away, which purge at once): its rows stay under a hidden transcript until a live
 * instance, once the dead one's lease has ended, purges them (`purgeAbandonedImports`).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../store";
import { headerOf } from "./header";
import { beginImport, finishImport, purgeAbandonedImports } from "./store-actions";
import { sampleTranscript } from "./testing";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "wirescope-import-crash-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Runs the child until it has committed `records` records of its import, then kills it. */
async function importKilledAfter(path: string, leaseUntil: number, records: number) {
  const script = fileURLToPath(new URL("./import-crash-child.ts", import.meta.url));
  // `node --import tsx`: one process, so SIGKILL hits the importer itself, not a wrapper.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", script, path, "dead-instance", String(leaseUntil)],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    child.on("exit", (_code, signal) => resolve(signal));
  });
  const transcriptId = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (data: Buffer) => {
      buffer += data.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      const [word, id, seq] = (lines.at(-1) ?? "").split(" ");
      if (word === "appended" && Number(seq) >= records && !child.killed) {
        child.kill("SIGKILL");
        resolve(id as string);
      }
    });
    child.on("exit", (code) =>
      reject(new Error(`The importer exited on its own (${code}): ${stderr}`)),
    );
  });
  expect(await exited).toBe("SIGKILL");
  return transcriptId;
}

describe("an import cut off by a crash", () => {
  it("is purged once its instance's lease has ended; deleted transcripts stay", async () => {
    const path = join(directory, "store.db");
    const leaseUntil = Date.now() + 60_000;
    // Before the crash: a transcript the user deleted, and a finished import they deleted.
    const before = openSqliteStore({ path });
    const { parentId: _parentId, forkPoint: _forkPoint, ...meta } = sampleTranscript().meta;
    await before.createTranscript({ ...meta, id: "deleted", title: "deleted by the user" });
    await before.appendRecords("deleted", "run-1", sampleTranscript().records);
    await before.deleteTranscript("deleted");
    await before.renewLease("dead-instance", leaseUntil);
    const finished = await beginImport(before, headerOf(meta), Date.now, "dead-instance");
    await before.appendRecords(finished.meta.id, "imported", sampleTranscript().records);
    await finishImport(before, finished.meta.id, finished.origin);
    await before.deleteTranscript(finished.meta.id);
    await before.close();

    const cut = await importKilledAfter(path, leaseUntil, 2000);

    const store = openSqliteStore({ path });
    try {
      expect((await store.listRunRecords(cut, "imported", 0)).length).toBeGreaterThanOrEqual(2000);
      // While the dead instance's lease lasts, it may still be writing: left alone.
      expect(await purgeAbandonedImports(store, leaseUntil - 1)).toEqual([]);
      expect((await store.listRunRecords(cut, "imported", 0)).length).toBeGreaterThanOrEqual(2000);
      expect(await purgeAbandonedImports(store, leaseUntil)).toEqual([cut]);
      expect(await store.listRunRecords(cut, "imported", 0)).toEqual([]);
      expect(await store.restoreTranscript(cut)).toBe(false);
      expect(await purgeAbandonedImports(store, leaseUntil + 1)).toEqual([]);
      // The user's deleted transcripts come back whole.
      for (const id of ["deleted", finished.meta.id]) {
        expect(await store.restoreTranscript(id)).toBe(true);
        expect((await store.getTranscript(id))?.records).toHaveLength(
          sampleTranscript().records.length,
        );
      }
    } finally {
      await store.close();
    }
  });
});
