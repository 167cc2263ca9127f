import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

export type EntryType = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  absolute: string;
  /** Workspace-relative, slash-separated: usable as-is in `read` and `list`. */
  path: string;
  type: EntryType;
  /** Bytes, for files only. */
  size?: number;
}

export interface WalkOptions {
  recursive: boolean;
  signal: AbortSignal;
  /** Turns an absolute path into the workspace-relative form shown to the model. */
  relative(absolute: string): string;
}

/**
 * Depth-first, names sorted by code unit in each directory, so the order is stable across
 * platforms and locales. Symbolic links are reported, never followed: that keeps the walk
 * inside the workspace and free of cycles. Consumers stop early by breaking out of the loop.
 */
export async function* walk(directory: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  options.signal.throwIfAborted();
  const children = (await readdir(directory, { withFileTypes: true })).sort(byName);
  for (const child of children) {
    const absolute = path.join(directory, child.name);
    const type = entryType(child);
    const entry: WalkEntry = { absolute, path: options.relative(absolute), type };
    if (type === "file") entry.size = (await lstat(absolute)).size;
    yield entry;
    if (type === "directory" && options.recursive) yield* walk(absolute, options);
  }
}

function entryType(dirent: Dirent): EntryType {
  if (dirent.isSymbolicLink()) return "symlink";
  if (dirent.isDirectory()) return "directory";
  if (dirent.isFile()) return "file";
  return "other";
}

function byName(left: Dirent, right: Dirent): number {
  if (left.name === right.name) return 0;
  return left.name < right.name ? -1 : 1;
}
