import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setImmediate as setImmediatePromise } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { safeParseJson } from "../protocol/safe-json";
import { ensureWorkspace, existingWorkspace, sampleWorkspace } from "./ensure-workspace";
import { SAMPLE_FILES } from "./samples";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "wirescope-data-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe("ensureWorkspace", () => {
  it("creates <data>/workspaces/<id> and seeds the samples", async () => {
    const workspace = await ensureWorkspace(dataDir, "conv_42-a");
    expect(workspace.root.endsWith(path.join("workspaces", "conv_42-a"))).toBe(true);
    const files = await readdir(workspace.root, { recursive: true });
    expect(files.sort()).toEqual([
      "README.md",
      "config.json",
      "notes",
      "notes/todo.md",
      "src",
      "src/app.py",
    ]);
    expect(await readFile(path.join(workspace.root, "src/app.py"), "utf8")).toBe(
      SAMPLE_FILES["src/app.py"],
    );
  });

  it("finds an existing workspace only, waiting for one being seeded", async () => {
    expect(await existingWorkspace(dataDir, "later")).toBeNull();
    expect(existsSync(path.join(dataDir, "workspaces", "later"))).toBe(false);
    const making = ensureWorkspace(dataDir, "later");
    // Once the directory exists, its samples may still be on their way: a reader waits for them.
    while (!existsSync(path.join(dataDir, "workspaces", "later"))) await setImmediatePromise();
    const found = await existingWorkspace(dataDir, "later");
    expect(readdirSync(found?.root ?? "", { recursive: true })).toHaveLength(6);
    expect(found?.root).toBe((await making).root);
  });

  it("never finds a workspace half seeded, even when asked just before it is made", async () => {
    const seen: number[] = [];
    for (let index = 0; index < 200; index++) {
      const id = `race-${index}`;
      const [found] = await Promise.all([
        existingWorkspace(dataDir, id).then((workspace) =>
          workspace === null ? null : readdirSync(workspace.root, { recursive: true }).length,
        ),
        ensureWorkspace(dataDir, id),
      ]);
      if (found !== null) seen.push(found);
    }
    expect(seen.filter((count) => count !== 6)).toEqual([]);
  });

  it("reads the samples' template, the same files a new workspace gets", async () => {
    const samples = await sampleWorkspace(dataDir);
    const seeded = await ensureWorkspace(dataDir, "fresh");
    const files = (await readdir(seeded.root, { recursive: true })).sort();
    expect((await readdir(samples?.root ?? "", { recursive: true })).sort()).toEqual(files);
    for (const file of Object.keys(SAMPLE_FILES)) {
      expect(await readFile(path.join(samples?.root ?? "", file), "utf8")).toBe(SAMPLE_FILES[file]);
    }
  });

  it("seeds only on first creation", async () => {
    const first = await ensureWorkspace(dataDir, "once");
    await rm(path.join(first.root, "README.md"));
    const again = await ensureWorkspace(dataDir, "once");
    expect(again.root).toBe(first.root);
    expect((await readdir(again.root)).sort()).toEqual(["config.json", "notes", "src"]);
  });

  it.each(["", "../escape", "a/b", "a b", "dot.dot", "x".repeat(129)])(
    "refuses the id %j",
    async (id) => {
      await expect(ensureWorkspace(dataDir, id)).rejects.toThrow(/^Invalid conversation id/);
      expect(await readdir(dataDir)).toEqual([]);
    },
  );

  it("ships a valid config.json", () => {
    const parsed = safeParseJson(SAMPLE_FILES["config.json"] ?? "");
    expect(parsed).toMatchObject({ ok: true, value: { currency: "EUR", threshold: 40 } });
  });
});
