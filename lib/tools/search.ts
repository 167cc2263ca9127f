import { readFile } from "node:fs/promises";
import { z } from "zod";
import { plainEntry, READ_FLAGS } from "./file-kind";
import { looksBinary, plural } from "./text";
import { defineTool } from "./tool";
import { type WalkEntry, walk } from "./walk";

export const MAX_MATCHES = 100;
/** Files bigger than this are skipped: logs and data dumps, not what a text search is for. */
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
/** A matched line is cut to this many characters so one minified file cannot flood the result. */
export const MAX_MATCH_CHARS = 200;

export const searchTool = defineTool({
  name: "search",
  description:
    "Find a plain-text snippet (case-insensitive, not a regex) in the workspace's files. " +
    "Returns `file:line: text` matches. Binary files and files over 1 MiB are skipped.",
  input: z.strictObject({
    query: z.string().min(1).describe("The text to look for."),
    path: z.string().default(".").describe('File or directory to search in (default ".").'),
  }),
  async run({ query, path }, { workspace, signal }) {
    const absolute = await workspace.resolve(path);
    const stats = await plainEntry(absolute, path);
    const files: AsyncIterable<WalkEntry> | WalkEntry[] = stats.isDirectory()
      ? walk(absolute, { recursive: true, signal, relative: workspace.relative })
      : [{ absolute, path: workspace.relative(absolute), type: "file", size: stats.size }];
    const needle = query.toLowerCase();
    const matches: string[] = [];
    const matchedFiles = new Set<string>();
    let searched = 0;
    let skipped = 0;
    let truncated = false;
    for await (const file of files) {
      if (file.type !== "file") continue;
      if ((file.size ?? 0) > MAX_SEARCH_FILE_BYTES) {
        skipped++;
        continue;
      }
      // A file removed mid-search is skipped rather than failing the whole search.
      const bytes = await readFile(file.absolute, { flag: READ_FLAGS }).catch(() => undefined);
      if (bytes === undefined || looksBinary(bytes)) {
        skipped++;
        continue;
      }
      searched++;
      const lines = bytes.toString("utf8").split("\n");
      for (const [index, line] of lines.entries()) {
        if (!line.toLowerCase().includes(needle)) continue;
        if (matches.length === MAX_MATCHES) {
          truncated = true;
          break;
        }
        matches.push(`${file.path}:${index + 1}: ${clip(line.trim())}`);
        matchedFiles.add(file.path);
      }
      if (truncated) break;
    }
    const content = { matches, searchedFiles: searched, skippedFiles: skipped, truncated };
    const quoted = JSON.stringify(query);
    if (matches.length === 0) {
      return { content, outcome: `No matches for ${quoted} in ${plural(searched, "file")}` };
    }
    const found = `Found ${plural(matches.length, "match", "matches")} for ${quoted} in ${plural(matchedFiles.size, "file")}`;
    return { content, outcome: truncated ? `${found} (stopped at ${MAX_MATCHES})` : found };
  },
});

function clip(line: string): string {
  return line.length <= MAX_MATCH_CHARS ? line : `${line.slice(0, MAX_MATCH_CHARS)}…`;
}
