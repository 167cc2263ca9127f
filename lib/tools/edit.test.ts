import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countOccurrences, editTool } from "./edit";
import { createTempWorkspace, runTool, type TempWorkspace } from "./testing";
import { ToolFailure } from "./tool";

const APP = `def average(amounts):
    total = 0
    for amount in amounts[1:]:
        total += amount
    return total / len(amounts)
`;

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
  await temp.put({ "app.py": APP, "repeat.txt": "TODO one\nTODO two\nTODO three\n" });
});
afterEach(() => temp.cleanup());

const edit = (args: Record<string, unknown>) => runTool(editTool, args, temp.context);
const contentOf = (file: string) => readFile(path.join(temp.workspace.root, file), "utf8");

describe("edit", () => {
  it("replaces a snippet that occurs exactly once", async () => {
    const output = await edit({ file: "app.py", old: "amounts[1:]", new: "amounts" });
    expect(output).toEqual({
      content: { file: "app.py", line: 3, bytes: APP.length - 4 },
      outcome: "Edited app.py at line 3: replaced 1 line with 1",
    });
    expect(await contentOf("app.py")).toBe(APP.replace("amounts[1:]", "amounts"));
  });

  it("keeps $ patterns in the replacement literal", async () => {
    await edit({ file: "app.py", old: "total = 0", new: "total = $&$1" });
    expect(await contentOf("app.py")).toContain("    total = $&$1\n");
  });

  it.each([
    ["missing", '"old" was not found in "repeat.txt"; read the file and copy the exact text'],
    ["TODO", '"old" occurs 3 times in "repeat.txt"; include more surrounding text'],
  ])("fails for %j and leaves the file as it was", async (old, message) => {
    const attempt = edit({ file: "repeat.txt", old, new: "DONE" });
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(message);
    expect(await contentOf("repeat.txt")).toBe("TODO one\nTODO two\nTODO three\n");
  });

  it("treats overlapping matches as ambiguous", async () => {
    expect(countOccurrences("aaa", "aa")).toBe(2);
    await temp.put({ "a.txt": "aaa" });
    await expect(edit({ file: "a.txt", old: "aa", new: "b" })).rejects.toThrow(/occurs 2 times/);
  });

  it("refuses an edit that would grow the file past the write cap", async () => {
    const small = await createTempWorkspace({ maxWriteBytes: 16 });
    try {
      await small.put({ "s.txt": "short" });
      await expect(
        runTool(editTool, { file: "s.txt", old: "short", new: "x".repeat(17) }, small.context),
      ).rejects.toThrow('Content for "s.txt" is 17 bytes; writes are limited to 16 bytes.');
    } finally {
      await small.cleanup();
    }
  });

  it("fails clearly for a missing file", async () => {
    await expect(edit({ file: "nope.py", old: "a", new: "b" })).rejects.toThrow(
      '"nope.py" does not exist',
    );
  });
});
