import { symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listTool, MAX_LIST_ENTRIES } from "./list";
import { createTempWorkspace, runTool, type TempWorkspace } from "./testing";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
  await temp.put({
    "README.md": "# Hi\n",
    "notes/todo.md": "- [ ] one\n",
    "notes/ideas/later.md": "later\n",
    "a.txt": "abc",
  });
});
afterEach(() => temp.cleanup());

const list = (args: Record<string, unknown>) => runTool(listTool, args, temp.context);

describe("list", () => {
  it("lists the root by default, sorted by code unit, with sizes for files", async () => {
    expect(await list({})).toEqual({
      content: {
        path: ".",
        entries: [
          { path: "README.md", type: "file", size: 5 },
          { path: "a.txt", type: "file", size: 3 },
          { path: "notes", type: "directory" },
        ],
      },
      outcome: "Listed 3 entries in .",
    });
  });

  it("walks depth-first when recursive, with workspace-relative paths", async () => {
    const output = await list({ path: "notes", recursive: true });
    expect(output.content).toEqual({
      path: "notes",
      entries: [
        { path: "notes/ideas", type: "directory" },
        { path: "notes/ideas/later.md", type: "file", size: 6 },
        { path: "notes/todo.md", type: "file", size: 10 },
      ],
    });
    expect(output.outcome).toBe("Listed 3 entries in notes");
  });

  it("shows a symlink as such and lists the real directory behind an inside link", async () => {
    await symlink("notes", path.join(temp.workspace.root, "shortcut"));
    const entries = ((await list({})).content as { entries: unknown[] }).entries;
    expect(entries).toContainEqual({ path: "shortcut", type: "symlink" });
    expect((await list({ path: "shortcut" })).outcome).toBe("Listed 2 entries in notes");
  });

  it("stops at the entry cap and says so", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index <= MAX_LIST_ENTRIES; index++)
      files[`many/${String(index).padStart(3, "0")}.txt`] = "";
    await temp.put(files);
    const output = await list({ path: "many" });
    const content = output.content as { entries: { path: string }[]; truncated: string };
    expect(content.entries).toHaveLength(MAX_LIST_ENTRIES);
    expect(content.entries.at(-1)?.path).toBe("many/499.txt");
    expect(content.truncated).toBe("stopped at 500; list a subdirectory");
    expect(output.outcome).toBe("Listed 500 entries in many (stopped at 500)");
  });

  it("fails clearly for a file or a missing directory", async () => {
    await expect(list({ path: "a.txt" })).rejects.toThrow(
      '"a.txt" is a file, not a directory; use `read` to see its content.',
    );
    await expect(list({ path: "nope" })).rejects.toThrow('"nope" does not exist');
  });
});
