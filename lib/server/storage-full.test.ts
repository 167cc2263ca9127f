/**
 * A real full filesystem: the data directory on a 2 MB tmpfs (needs root to mount; the test is
 * skipped, and says so, where the machine does not allow it). Once the disk fills up mid-run,
 * the viewer gets a `storage_failed` error and the run stops.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRunStream } from "../client/run-stream";
import type { ProtocolEvent } from "../protocol/events";
import { openSqliteStore, sqliteProblem } from "../store";
import { readConfig } from "./config";
import { startRun } from "./runs";

const mountPoint = mkdtempSync(join(tmpdir(), "wirescope-full-"));
const mounted = tryMount(mountPoint);

afterAll(() => {
  if (mounted) execFileSync("umount", [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

function tryMount(path: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", path], { stdio: "ignore" });
    return true;
  } catch {
    console.warn("storage-full.test.ts: cannot mount a tmpfs here (not root?); skipped.");
    return false;
  }
}

/** Fills the filesystem until a write fails with ENOSPC. */
function fill(directory: string): void {
  const block = Buffer.alloc(64 * 1024, 1);
  for (let index = 0; ; index++) {
    try {
      writeFileSync(join(directory, `filler-${index}`), block);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOSPC") return;
      throw error;
    }
  }
}

describe("a full disk during a run", () => {
  it.skipIf(!mounted)("reaches the viewer as storage_failed and stops the run", async () => {
    const dataDir = join(mountPoint, "data");
    mkdirSync(dataDir);
    const store = openSqliteStore({ path: join(dataDir, "wirescope.db") });
    const config = readConfig({ WIRESCOPE_DATA_DIR: dataDir, WIRESCOPE_DEMO_PACE_MS: "5" });
    const { body } = await startRun(
      { message: "demo: parallel batch", dialect: "xml" },
      {
        store,
        config,
      },
    );
    const events: ProtocolEvent[] = [];
    let filled = false;
    for await (const record of readRunStream(body)) {
      if (record.kind !== "event") continue;
      events.push(record.event);
      if (!filled && events.length === 3) {
        fill(join(mountPoint));
        filled = true;
      }
    }
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", code: "storage_failed" });
    expect(JSON.stringify(last)).not.toContain(mountPoint);
    expect(events.filter((event) => event.type === "end")).toEqual([]);
    await store.close();
  });
});

describe("a full disk on a route's write", () => {
  it.skipIf(!mounted)(
    "is the SQLite error a route answers with 507 naming the full disk",
    async () => {
      // Room again after the run above filled the disk.
      for (const name of readdirSync(mountPoint))
        if (name.startsWith("filler-")) rmSync(join(mountPoint, name));
      const dataDir = join(mountPoint, "data-route");
      mkdirSync(dataDir);
      const store = openSqliteStore({ path: join(dataDir, "wirescope.db") });
      await store.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
      fill(mountPoint);
      let failure: unknown;
      try {
        // Enough to need new pages: the disk has none left.
        for (let index = 0; index < 50; index++) {
          await store.createTranscript({
            dialect: "xml",
            model: { provider: "demo", id: "x" },
            system: "s".repeat(64 * 1024),
          });
        }
      } catch (error) {
        failure = error;
      }
      expect(sqliteProblem(failure)).toMatchObject({ status: 507 });
      await store.close();
    },
  );
});
