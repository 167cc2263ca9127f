import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "./edit";
import { ensureWorkspace } from "./ensure-workspace";
import { SAMPLE_FILES } from "./samples";
import { TEMPLATE_NAME } from "./seed-template";
import { runTool } from "./testing";
import type { Workspace } from "./workspace";
import { writeTool } from "./write";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "wirescope-seed-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const template = () => path.join(dataDir, "workspaces", TEMPLATE_NAME);
const contentOf = (root: string, file: string) => readFile(path.join(root, file), "utf8");
const context = (workspace: Workspace) => ({ workspace, signal: new AbortController().signal });

async function expectSamples(root: string): Promise<void> {
  for (const [file, content] of Object.entries(SAMPLE_FILES)) {
    expect(await contentOf(root, file)).toBe(content);
  }
}

describe("seeding from the template", () => {
  it("gives each workspace files of its own: a write or edit in one changes no other, nor the template", async () => {
    const first = await ensureWorkspace(dataDir, "first");
    const second = await ensureWorkspace(dataDir, "second");
    await runTool(writeTool, { file: "README.md", content: "mine\n" }, context(first));
    await runTool(
      editTool,
      { file: "src/app.py", old: "amounts[1:]", new: "amounts" },
      context(first),
    );
    // What a shell command does: change the file in place, through its inode.
    await appendFile(path.join(first.root, "config.json"), "appended");

    expect(await contentOf(first.root, "README.md")).toBe("mine\n");
    expect(await contentOf(first.root, "src/app.py")).not.toBe(SAMPLE_FILES["src/app.py"]);
    await expectSamples(second.root);
    await expectSamples(template());
    await expectSamples((await ensureWorkspace(dataDir, "third")).root);
    const [a, b] = await Promise.all([
      stat(path.join(first.root, "notes/todo.md")),
      stat(path.join(second.root, "notes/todo.md")),
    ]);
    expect(a.ino).not.toBe(b.ino);
  });

  it("does not use a template that holds other contents (left by another version)", async () => {
    await mkdir(path.join(template(), "notes"), { recursive: true });
    await mkdir(path.join(template(), "src"), { recursive: true });
    for (const file of Object.keys(SAMPLE_FILES)) {
      await writeFile(path.join(template(), file), "stale\n");
    }
    await expectSamples((await ensureWorkspace(dataDir, "fresh")).root);
    // Replaced, not left beside a new directory at every start.
    await expectSamples(template());
    const left = await readdir(path.join(dataDir, "workspaces"));
    expect(left.filter((name) => name.startsWith(".seed"))).toEqual([TEMPLATE_NAME]);
  });

  it("seeds from memory when the template is gone, and makes it again for the next workspace", async () => {
    await ensureWorkspace(dataDir, "before");
    await rm(template(), { recursive: true });
    await expectSamples((await ensureWorkspace(dataDir, "during")).root);
    await expectSamples((await ensureWorkspace(dataDir, "after")).root);
    await expectSamples(template());
  });

  it("seeds many workspaces made at once, each once", async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `many-${index % 10}`);
    const workspaces = await Promise.all(ids.map((id) => ensureWorkspace(dataDir, id)));
    for (const workspace of workspaces) await expectSamples(workspace.root);
  });
});
