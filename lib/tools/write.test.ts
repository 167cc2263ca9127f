import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempWorkspace, runTool, type TempWorkspace } from "./testing";
import { ToolFailure } from "./tool";
import { writeTool } from "./write";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
});
afterEach(() => temp.cleanup());

const write = (args: Record<string, unknown>) => runTool(writeTool, args, temp.context);
const contentOf = (file: string) => readFile(path.join(temp.workspace.root, file), "utf8");

describe("write", () => {
  it("creates the file and its parent directories", async () => {
    expect(await write({ file: "src/web/index.html", content: "<h1>Hi</h1>\n" })).toEqual({
      content: { file: "src/web/index.html", bytes: 12, created: true },
      outcome: "Created src/web/index.html (12 B)",
    });
    expect(await contentOf("src/web/index.html")).toBe("<h1>Hi</h1>\n");
  });

  it("overwrites an existing file", async () => {
    await temp.put({ "a.txt": "old" });
    const output = await write({ file: "a.txt", content: "new" });
    expect(output.outcome).toBe("Overwrote a.txt (3 B)");
    expect(await contentOf("a.txt")).toBe("new");
  });

  it("accepts exactly the cap and refuses one byte more, writing nothing", async () => {
    const cap = 1024 * 1024;
    await write({ file: "at-cap.txt", content: "x".repeat(cap) });
    expect((await stat(path.join(temp.workspace.root, "at-cap.txt"))).size).toBe(cap);

    const attempt = write({ file: "huge.txt", content: "x".repeat(cap + 1) });
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(
      'Content for "huge.txt" is 1048577 bytes; writes are limited to 1048576 bytes (1 MiB). Write less, or split it across files.',
    );
    await expect(stat(path.join(temp.workspace.root, "huge.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("counts the cap in UTF-8 bytes and honours a configured cap", async () => {
    const small = await createTempWorkspace({ maxWriteBytes: 4 });
    try {
      await expect(
        runTool(writeTool, { file: "e.txt", content: "éé" }, small.context),
      ).resolves.toMatchObject({
        content: { bytes: 4 },
      });
      await expect(
        runTool(writeTool, { file: "e.txt", content: "ééé" }, small.context),
      ).rejects.toThrow('Content for "e.txt" is 6 bytes; writes are limited to 4 bytes.');
    } finally {
      await small.cleanup();
    }
  });

  it("fails clearly when the path is a directory or goes through a file", async () => {
    await temp.put({ "dir/a.txt": "a", "plain.txt": "p" });
    await expect(write({ file: "dir", content: "x" })).rejects.toThrow(
      '"dir" is a directory, not a file',
    );
    await expect(write({ file: "plain.txt/inner.txt", content: "x" })).rejects.toThrow(
      /"plain\.txt\/inner\.txt" (cannot be created|is not a directory)/,
    );
  });
});
