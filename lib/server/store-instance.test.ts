import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getStore } from "./store-instance";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("getStore", () => {
  it("calls the store's own methods once crash recovery has settled (no wrapper per call)", async () => {
    const dir = mkdtempSync(join(os.tmpdir(), "wirescope-store-instance-"));
    dirs.push(dir);
    const store = getStore(dir);
    expect(await store.listUnfinishedRuns()).toEqual([]);
    const append = store.appendRunRecords;
    expect(store.appendRunRecords).toBe(append);
    expect(await store.getRunInfo("nothing")).toBeNull();
  });
});
