import { existsSync } from "node:fs";
import { mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  calculateTool,
  createRegistry,
  listTool,
  readTool,
  SAMPLE_FILES,
  searchTool,
  writeTool,
} from "../tools";
import { lazyWorkspace } from "./lazy-workspace";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "wirescope-lazy-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const signal = new AbortController().signal;

describe("lazyWorkspace", () => {
  it("reads the samples without making the workspace while the tools only read", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-1");
    const root = path.join(dataDir, "workspaces", "conv-1");
    const registry = lazy.tools(createRegistry([listTool, readTool, searchTool]));
    const context = { workspace: lazy.workspace, signal };

    const [first, second] = await Promise.all([
      registry.run("list", {}, context),
      registry.run("list", {}, context),
    ]);
    expect(first?.status).toBe("success");
    expect(second).toEqual(first);
    expect(JSON.stringify(first?.content)).toContain('"README.md"');
    const read = await registry.run("read", { file: "src/app.py" }, context);
    expect(JSON.stringify(read.content)).toContain("def average(amounts)");
    const found = await registry.run("search", { query: "average" }, context);
    expect(found.status).toBe("success");
    expect(JSON.stringify(found.content)).toContain("src/app.py");
    // Nothing was made for the conversation, and no path of the template shows.
    expect(existsSync(root)).toBe(false);
    expect(JSON.stringify([first, read, found])).not.toContain(dataDir);
  });

  it("makes and seeds the workspace at the first write; every tool works in it from then on", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-4");
    const root = path.join(dataDir, "workspaces", "conv-4");
    const registry = lazy.tools(createRegistry([listTool, readTool, writeTool]));
    const context = { workspace: lazy.workspace, signal };
    await registry.run("read", { file: "README.md" }, context);
    const wrote = await registry.run("write", { file: "notes/new.md", content: "mine" }, context);
    expect(wrote.status).toBe("success");
    expect(lazy.workspace.root).toBe(await realpath(root));
    expect((await readdir(root, { recursive: true })).sort()).toEqual(
      [...Object.keys(SAMPLE_FILES), "notes", "notes/new.md", "src"].sort(),
    );
    const listed = await registry.run("list", { path: "notes" }, context);
    expect(JSON.stringify(listed.content)).toContain("notes/new.md");

    // A later run of the conversation reads its workspace as it was left, not the samples.
    await rm(path.join(root, "README.md"));
    const later = lazyWorkspace(dataDir, "conv-4");
    const laterTools = later.tools(createRegistry([listTool, readTool]));
    const laterContext = { workspace: later.workspace, signal };
    const mine = await laterTools.run("read", { file: "notes/new.md" }, laterContext);
    expect(JSON.stringify(mine.content)).toContain("mine");
    const gone = await laterTools.run("read", { file: "README.md" }, laterContext);
    expect(gone.status).toBe("failure");
    // The template, which another conversation still reads, was left alone.
    const other = lazyWorkspace(dataDir, "conv-5");
    const others = await other
      .tools(createRegistry([listTool]))
      .run("list", { path: "notes" }, { workspace: other.workspace, signal });
    expect(JSON.stringify(others.content)).not.toContain("new.md");
  });

  it("reads again from a new template when the template is removed during a read", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-7");
    const tools = createRegistry([readTool]);
    let removals = 0;
    // The template goes away between the tool being pointed at it and its read.
    const racing = {
      ...tools,
      async run(...args: Parameters<typeof tools.run>) {
        if (removals++ === 0) await rm(args[2].workspace.root, { recursive: true, force: true });
        return tools.run(...args);
      },
    };
    const result = await lazy
      .tools(racing)
      .run("read", { file: "README.md" }, { workspace: lazy.workspace, signal });
    expect(result.status).toBe("success");
    expect(JSON.stringify(result.content)).toContain("Your workspace");
    expect(removals).toBe(2);
  });

  it("reads the samples again when their template was removed", async () => {
    const lazy = lazyWorkspace(dataDir, "conv-6");
    const registry = lazy.tools(createRegistry([readTool]));
    const context = { workspace: lazy.workspace, signal };
    expect((await registry.run("read", { file: "README.md" }, context)).status).toBe("success");
    await rm(path.join(dataDir, "workspaces"), { recursive: true, force: true });
    const again = await registry.run("read", { file: "README.md" }, context);
    expect(again.status).toBe("success");
    expect(JSON.stringify(again.content)).toContain("Your workspace");
    expect(existsSync(path.join(dataDir, "workspaces", "conv-6"))).toBe(false);
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
