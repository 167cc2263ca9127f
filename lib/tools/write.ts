import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { plainEntryIfAny, WRITE_FLAGS } from "./file-kind";
import { toFsFailure } from "./fs-failure";
import { formatBytes } from "./text";
import { defineTool, ToolFailure } from "./tool";
import type { Workspace } from "./workspace";

export const writeTool = defineTool({
  name: "write",
  description:
    "Create or overwrite a text file in the workspace with the given content. " +
    "Parent directories are created as needed. To change part of a file, prefer `edit`.",
  input: z.strictObject({
    file: z.string().min(1).describe('Path relative to the workspace root, e.g. "src/app.py".'),
    content: z.string().describe("The complete new content of the file."),
  }),
  async run({ file, content }, { workspace }) {
    const absolute = await workspace.resolve(file);
    const bytes = refuseHugeWrite(workspace, content, file);
    const existed = (await plainEntryIfAny(absolute, file))?.isFile() ?? false;
    try {
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content, { encoding: "utf8", flag: WRITE_FLAGS });
    } catch (error) {
      toFsFailure(error, file);
    }
    const verb = existed ? "Overwrote" : "Created";
    return {
      content: { file, bytes, created: !existed },
      outcome: `${verb} ${file} (${formatBytes(bytes)})`,
    };
  },
});

/** The content's UTF-8 size, or a `ToolFailure` when it is over the workspace's write cap. */
export function refuseHugeWrite(workspace: Workspace, content: string, file: string): number {
  const bytes = Buffer.byteLength(content, "utf8");
  const cap = workspace.limits.maxWriteBytes;
  if (bytes > cap) {
    const friendly = cap >= 1024 ? ` (${formatBytes(cap)})` : "";
    throw new ToolFailure(
      `Content for "${file}" is ${bytes} bytes; writes are limited to ${cap} bytes${friendly}. Write less, or split it across files.`,
    );
  }
  return bytes;
}
