import { type FileHandle, open } from "node:fs/promises";
import { z } from "zod";
import { plainEntry, READ_FLAGS, refuseSpecial } from "./file-kind";
import { toFsFailure } from "./fs-failure";
import { linePieces } from "./line-pieces";
import { BINARY_SNIFF_BYTES, formatBytes, looksBinary, plural, utf8Prefix } from "./text";
import { defineTool, ToolFailure } from "./tool";

const lineNumber = z.number().int().min(1);

export const readTool = defineTool({
  name: "read",
  description:
    "Read a text file from the workspace, optionally only a range of lines (1-based, inclusive). " +
    "Long output is truncated with a marker saying where to continue.",
  input: z.strictObject({
    file: z.string().min(1).describe('Path relative to the workspace root, e.g. "notes/todo.md".'),
    start: lineNumber.optional().describe("First line to read (default 1)."),
    end: lineNumber.optional().describe("Last line to read (default: the end of the file)."),
  }),
  async run({ file, start = 1, end = Number.POSITIVE_INFINITY }, { workspace, signal }) {
    if (start > end) {
      throw new ToolFailure(`"start" (${start}) is after "end" (${end}); swap them.`);
    }
    const absolute = await workspace.resolve(file);
    await plainEntry(absolute, file);
    const handle = await open(absolute, READ_FLAGS).catch((error: unknown) =>
      toFsFailure(error, file),
    );
    try {
      const head = await refuseNonText(handle, file);
      const maxBytes = workspace.limits.maxReadBytes;
      // A file shorter than the sniff is already read whole: no stream, no second read.
      const chunks =
        head.length < BINARY_SNIFF_BYTES
          ? [head]
          : handle.createReadStream({ start: 0, autoClose: false });
      const text = await readLines(chunks, { start, end, maxBytes, signal });
      if (text.lastLine === undefined && start > 1) {
        throw new ToolFailure(`"${file}" has only ${plural(text.totalLines ?? 0, "line")}.`);
      }
      const count = text.lastLine === undefined ? 0 : text.lastLine - start + 1;
      const ranged = start > 1 || end !== Number.POSITIVE_INFINITY;
      const what = ranged ? `lines ${start}–${text.lastLine ?? start}` : plural(count, "line");
      if (text.truncatedAt === undefined) {
        return { content: text.content, outcome: `Read ${what} from ${file}` };
      }
      const cap = formatBytes(maxBytes);
      const next = JSON.stringify({ file, start: text.truncatedAt });
      return {
        content: `${text.content}\n[truncated at ${cap}; read on with ${next}]`,
        outcome: `Read ${what} from ${file}, truncated at ${cap}`,
      };
    } finally {
      await handle.close();
    }
  },
});

/** The file's first `BINARY_SNIFF_BYTES` (all of it when shorter), once it is known to be text. */
async function refuseNonText(handle: FileHandle, file: string): Promise<Buffer> {
  const stats = await handle.stat();
  // Checked again on what was opened: the path may have been swapped since the lstat.
  refuseSpecial(stats, file);
  if (stats.isDirectory()) {
    throw new ToolFailure(`"${file}" is a directory, not a file; use \`list\` to see inside it.`);
  }
  const head = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  const read = head.subarray(0, bytesRead);
  if (looksBinary(read)) {
    throw new ToolFailure(`"${file}" looks like a binary file; \`read\` only shows text.`);
  }
  return read;
}

interface LineRead {
  content: string;
  /** Last line included (in part, when truncated); undefined when no line was in range. */
  lastLine: number | undefined;
  /** Set when the byte cap cut the output: the line to read on from (shown again in full). */
  truncatedAt?: number;
  /** Known only when the whole file was read. */
  totalLines: number | undefined;
}

interface LineRange {
  start: number;
  end: number;
  maxBytes: number;
  signal: AbortSignal;
}

async function readLines(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  range: LineRange,
): Promise<LineRead> {
  const kept: Buffer[] = [];
  let used = 0;
  let line = 1;
  let lastLine: number | undefined;
  let endedWithNewline = true;
  for await (const { bytes, endsLine } of linePieces(chunks)) {
    range.signal.throwIfAborted();
    if (line > range.end) return { content: join(kept), lastLine, totalLines: undefined };
    if (line >= range.start) {
      if (used + bytes.length > range.maxBytes) {
        const prefix = utf8Prefix(bytes, range.maxBytes - used);
        if (prefix.length > 0) lastLine = line;
        kept.push(prefix);
        return { content: join(kept), lastLine, truncatedAt: line, totalLines: undefined };
      }
      kept.push(bytes);
      used += bytes.length;
      lastLine = line;
    }
    endedWithNewline = endsLine;
    if (endsLine) line++;
  }
  return { content: join(kept), lastLine, totalLines: endedWithNewline ? line - 1 : line };
}

function join(kept: Buffer[]): string {
  return Buffer.concat(kept).toString("utf8");
}
