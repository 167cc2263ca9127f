/** Test helpers for the tool suites: throwaway workspaces in the OS temp directory. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Tool, ToolContext, ToolOutput } from "./tool";
import { createWorkspace, type Workspace, type WorkspaceLimits } from "./workspace";

export interface TempWorkspace {
  workspace: Workspace;
  context: ToolContext;
  /** A sibling of the workspace holding `secret.txt`: what escapes must never reach. */
  outside: string;
  /** Writes files relative to the workspace root, creating directories. */
  put(files: Record<string, string | Buffer>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createTempWorkspace(
  limits: Partial<WorkspaceLimits> = {},
): Promise<TempWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), "wirescope-tools-")));
  const root = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "top secret\n");
  const workspace = await createWorkspace(root, limits);
  return {
    workspace,
    context: { workspace, signal: new AbortController().signal },
    outside,
    async put(files) {
      for (const [file, content] of Object.entries(files)) {
        const absolute = path.join(root, file);
        await mkdir(path.dirname(absolute), { recursive: true });
        await writeFile(absolute, content);
      }
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Runs a tool the way the registry does after validation: parsed input, defaults applied. */
export function runTool<I>(
  tool: Tool<I>,
  args: unknown,
  context: ToolContext,
): Promise<ToolOutput> {
  return tool.run(tool.input.parse(args), context);
}
