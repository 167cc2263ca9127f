import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { toFsFailure } from "./fs-failure";
import { ToolFailure } from "./tool";

export interface WorkspaceLimits {
  /** Largest content `write` and `edit` accept, in UTF-8 bytes. */
  maxWriteBytes: number;
  /** Most text `read` returns before it truncates with a visible marker, in UTF-8 bytes. */
  maxReadBytes: number;
}

export const DEFAULT_LIMITS: WorkspaceLimits = {
  maxWriteBytes: 1024 * 1024,
  maxReadBytes: 64 * 1024,
};

/** A directory the tools are confined to. Every path a model sends goes through `resolve`. */
export interface Workspace {
  /** The root's real path (symlinks resolved), so containment checks compare like with like. */
  readonly root: string;
  readonly limits: WorkspaceLimits;
  /** The real absolute path of a workspace-relative path; throws `ToolFailure` if it leaves. */
  resolve(relativePath: string): Promise<string>;
  /** The workspace-relative, slash-separated form of an absolute path inside the root. */
  relative(absolutePath: string): string;
}

export async function createWorkspace(
  root: string,
  limits: Partial<WorkspaceLimits> = {},
): Promise<Workspace> {
  const realRoot = await realpath(root);
  const workspace: Workspace = {
    root: realRoot,
    limits: { ...DEFAULT_LIMITS, ...limits },
    resolve: (relativePath) => resolveInside(realRoot, relativePath),
    relative: (absolutePath) =>
      path.relative(realRoot, absolutePath).split(path.sep).join("/") || ".",
  };
  return workspace;
}

async function resolveInside(root: string, relativePath: string): Promise<string> {
  const shown = JSON.stringify(relativePath);
  if (relativePath.includes("\0")) {
    throw new ToolFailure(`Path ${shown} contains a NUL byte; use a plain relative path.`);
  }
  if (path.isAbsolute(relativePath)) {
    throw new ToolFailure(
      `Path ${shown} is absolute; use a path relative to the workspace root, such as "notes/todo.md".`,
    );
  }
  const lexical = path.resolve(root, relativePath);
  if (!isInside(root, lexical)) {
    throw new ToolFailure(`Path ${shown} leaves the workspace; use a path inside it.`);
  }
  // The lexical check is not enough: a symlink inside the workspace may point anywhere.
  const real = await realPathOfDeepestExisting(lexical, relativePath);
  if (!isInside(root, real)) {
    throw new ToolFailure(
      `Path ${shown} leads out of the workspace through a symbolic link; use a path inside it.`,
    );
  }
  return real;
}

/**
 * The real path of `target`, following symlinks of every existing ancestor. Parts that do not
 * exist yet (a file about to be written) are appended unchanged, since they cannot be links.
 */
async function realPathOfDeepestExisting(target: string, relativePath: string): Promise<string> {
  const shown = JSON.stringify(relativePath);
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing);
    } catch (error) {
      // A name too long for the file system, a loop of links: the model's to fix, so worded
      // for it (toFsFailure), not "failed unexpectedly" with the errno text.
      if (!isMissing(error)) toFsFailure(error, relativePath);
    }
    // A dangling symlink resolves nowhere yet; writing through it could create a file outside.
    if (await isDanglingLink(current)) {
      throw new ToolFailure(
        `Path ${shown} goes through a symbolic link whose target does not exist; use a path inside the workspace.`,
      );
    }
    missing.unshift(path.basename(current));
    current = path.dirname(current);
  }
}

async function isDanglingLink(candidate: string): Promise<boolean> {
  try {
    return (await lstat(candidate)).isSymbolicLink();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === "") return true;
  const first = relative.split(path.sep)[0];
  return first !== ".." && !path.isAbsolute(relative);
}
