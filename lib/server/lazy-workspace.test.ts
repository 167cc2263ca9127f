import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { calculateTool, createRegistry, listTool, SAMPLE_FILES } from "../tools";
import { lazyWorkspace } from "./lazy-workspace";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "wirescope-lazy-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const signal = new AbortController().signal;

describe("lazyWorkspace", () => {
  it("makes nothing on disk until a tool runs, then seeds the workspace once", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-1");
    const root = path.join(dataDir, "workspaces", "conv-1");
    const registry = lazy.tools(createRegistry([listTool]));
    expect(registry.names()).toEqual(["list"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(root)).toBe(false);

    const [first, second] = await Promise.all([
      registry.run("list", {}, { workspace: lazy.workspace, signal }),
      registry.run("list", {}, { workspace: lazy.workspace, signal }),
    ]);
    expect(first?.status).toBe("success");
    expect(second).toEqual(first);
    const listed = JSON.stringify(first?.content);
    // The samples were written (the listing's top level shows one of them).
    expect(Object.keys(SAMPLE_FILES)).toContain("README.md");
    expect(listed).toContain('"README.md"');
    expect(lazy.workspace.root).toBe(await realpath(root));
  });

  it("runs a tool that reads no file without making the workspace", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-3");
    const result = await lazy
      .tools(createRegistry([listTool, calculateTool]))
      .run("calculate", { expression: "12 * 12" }, { workspace: lazy.workspace, signal });
    expect(result).toMatchObject({ status: "success", content: { value: 144 } });
    expect(existsSync(path.join(dataDir, "workspaces"))).toBe(false);
  });

  it("answers a tool failure, with no server path, when the workspace cannot be made", async () => {
    // A file where the workspaces directory should be: mkdir fails.
    await writeFile(path.join(dataDir, "workspaces"), "not a directory");
    const lazy = lazyWorkspace(dataDir, "conv-2");
    const result = await lazy
      .tools(createRegistry([listTool]))
      .run("list", {}, { workspace: lazy.workspace, signal });
    expect(result.status).toBe("failure");
    expect(result.content).toMatch(/^The list tool failed unexpectedly: the workspace/);
    expect(String(result.content)).not.toContain(dataDir);
  });
});
