import { z } from "zod";
import { plainEntry } from "./file-kind";
import { plural } from "./text";
import { defineTool, ToolFailure } from "./tool";
import { type EntryType, walk } from "./walk";

/** Enough to orient in a project; past it the model should list a subdirectory. */
export const MAX_LIST_ENTRIES = 500;

export interface ListEntry {
  path: string;
  type: EntryType;
  size?: number;
}

export const listTool = defineTool({
  name: "list",
  description:
    "List the files and directories at a path in the workspace, with type and size in bytes. " +
    "Set `recursive` to include everything below it. Symbolic links are shown, not followed.",
  input: z.strictObject({
    path: z
      .string()
      .default(".")
      .describe('Directory relative to the workspace root (default ".").'),
    recursive: z.boolean().default(false).describe("Include subdirectories (default false)."),
  }),
  async run({ path, recursive }, { workspace, signal }) {
    const absolute = await workspace.resolve(path);
    const stats = await plainEntry(absolute, path);
    if (!stats.isDirectory()) {
      throw new ToolFailure(
        `"${path}" is a file, not a directory; use \`read\` to see its content.`,
      );
    }
    const entries: ListEntry[] = [];
    let truncated = false;
    const relative = workspace.relative;
    for await (const entry of walk(absolute, { recursive, signal, relative })) {
      if (entries.length === MAX_LIST_ENTRIES) {
        truncated = true;
        break;
      }
      entries.push(
        entry.size === undefined
          ? { path: entry.path, type: entry.type }
          : { path: entry.path, type: entry.type, size: entry.size },
      );
    }
    const where = workspace.relative(absolute);
    const listed = `Listed ${plural(entries.length, "entry", "entries")} in ${where}`;
    if (!truncated) return { content: { path: where, entries }, outcome: listed };
    return {
      content: {
        path: where,
        entries,
        truncated: `stopped at ${MAX_LIST_ENTRIES}; list a subdirectory`,
      },
      outcome: `${listed} (stopped at ${MAX_LIST_ENTRIES})`,
    };
  },
});
