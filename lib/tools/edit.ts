import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { plainEntry, READ_FLAGS, WRITE_FLAGS } from "./file-kind";
import { toFsFailure } from "./fs-failure";
import { formatBytes, looksBinary, plural } from "./text";
import { defineTool, ToolFailure } from "./tool";
import { refuseHugeWrite } from "./write";

export const editTool = defineTool({
  name: "edit",
  description:
    "Replace one snippet of a text file: `old` must occur exactly once in the file " +
    "(copy it exactly, with enough surrounding text to be unique); it becomes `new`.",
  input: z.strictObject({
    file: z.string().min(1).describe("Path relative to the workspace root."),
    old: z.string().min(1).describe("The exact text to replace; must occur exactly once."),
    new: z.string().describe("The replacement text (may be empty to delete)."),
  }),
  async run({ file, old, new: replacement }, { workspace }) {
    const absolute = await workspace.resolve(file);
    const text = await readForEdit(absolute, file, workspace.limits.maxWriteBytes);
    const count = countOccurrences(text, old);
    if (count === 0) {
      throw new ToolFailure(
        `"old" was not found in "${file}"; read the file and copy the exact text, including whitespace.`,
      );
    }
    if (count > 1) {
      throw new ToolFailure(
        `"old" occurs ${count} times in "${file}"; include more surrounding text so it matches exactly once.`,
      );
    }
    const at = text.indexOf(old);
    // Slicing, not String.replace: "$&" and friends in `new` must stay literal.
    const edited = text.slice(0, at) + replacement + text.slice(at + old.length);
    const bytes = refuseHugeWrite(workspace, edited, file);
    await writeFile(absolute, edited, { encoding: "utf8", flag: WRITE_FLAGS }).catch(
      (error: unknown) => toFsFailure(error, file),
    );
    const line = text.slice(0, at).split("\n").length;
    const removed = old.split("\n").length;
    const added = replacement.split("\n").length;
    return {
      content: { file, line, bytes },
      outcome: `Edited ${file} at line ${line}: replaced ${plural(removed, "line")} with ${added}`,
    };
  },
});

async function readForEdit(absolute: string, file: string, cap: number): Promise<string> {
  const stats = await plainEntry(absolute, file);
  if (stats.isDirectory()) {
    throw new ToolFailure(`"${file}" is a directory, not a file; use \`list\` to see inside it.`);
  }
  if (stats.size > cap) {
    throw new ToolFailure(
      `"${file}" is ${formatBytes(stats.size)}; \`edit\` handles files up to ${formatBytes(cap)}.`,
    );
  }
  const bytes = await readFile(absolute, { flag: READ_FLAGS }).catch((error: unknown) =>
    toFsFailure(error, file),
  );
  if (looksBinary(bytes)) {
    throw new ToolFailure(`"${file}" looks like a binary file; \`edit\` only changes text.`);
  }
  return bytes.toString("utf8");
}

/** Counts overlapping matches too: "aa" in "aaa" is ambiguous, so it counts as 2. */
export function countOccurrences(text: string, snippet: string): number {
  let count = 0;
  for (let at = text.indexOf(snippet); at !== -1; at = text.indexOf(snippet, at + 1)) count++;
  return count;
}
