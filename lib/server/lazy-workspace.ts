import path from "node:path";
import {
  calculateTool,
  ensureWorkspace,
  existingWorkspace,
  listTool,
  type Registry,
  readTool,
  sampleWorkspace,
  searchTool,
  type Tool,
  type Workspace,
} from "../tools";
import { withoutServerPaths } from "../tools/registry";
import { DEFAULT_LIMITS } from "../tools/workspace";

/**
 * Tools that never look at the workspace: a call of one neither waits for it nor makes it.
 * Seeding (three directories and four file copies, `lib/tools/seed-template.ts`) costs
 * 0.3–2 ms of CPU on this machine with the disk quiet (`bench/seed-workspace.ts`) and about
 * 6 ms, nearly all the kernel's, when 200 runs make theirs at once (`npx tsx
 * bench/live-runs.ts --by-message`): more than the rest of a short run.
 */
const WORKSPACE_FREE: ReadonlySet<Tool<unknown>> = new Set([calculateTool as Tool<unknown>]);

/**
 * Tools that only read: until the conversation's workspace exists they read the samples'
 * template (`sampleWorkspace`), which holds what a new workspace would, so a conversation that
 * only lists, reads and searches never makes one. The first call of any other tool (a write,
 * an edit, a shell command) makes it, and from then on every tool works in it.
 */
const READS_ONLY: ReadonlySet<Tool<unknown>> = new Set([
  listTool as Tool<unknown>,
  readTool as Tool<unknown>,
  searchTool as Tool<unknown>,
]);

/** A run's workspace, made and seeded when its first tool call that changes files needs it. */
export interface LazyWorkspace {
  /** What the run environment holds; its `root` is the real root once the workspace exists. */
  workspace: Workspace;
  /** `registry` whose every call first waits for the workspace, then runs in it. */
  tools(registry: Registry): Registry;
}

/**
 * Seeding a workspace is a dozen file-system calls on the thread pool. When 300 runs start at
 * once, every start waited behind every earlier one's (and behind the tools of runs already
 * going), which held back each run's first record by up to seconds. Now nothing waits for it
 * but the tools: the workspace is made when the run's first tool call comes (after a model
 * turn), and a run that calls no tool that reads files never touches the disk for it.
 */
export function lazyWorkspace(dataDir: string, conversationId: string): LazyWorkspace {
  const lexicalRoot = path.join(dataDir, "workspaces", conversationId);
  let made: Promise<Workspace> | null = null;
  let real: Workspace | null = null;
  const ready = (): Promise<Workspace> => {
    made ??= ensureWorkspace(dataDir, conversationId).then(
      (workspace) => {
        real = workspace;
        return workspace;
      },
      (error: unknown) => {
        made = null; // the next tool call tries again
        throw error;
      },
    );
    return made;
  };
  /** Where a tool that only reads looks: the workspace once it exists, else the samples. */
  const readable = async (): Promise<Workspace> => {
    if (made !== null) return made;
    const existing = await existingWorkspace(dataDir, conversationId);
    if (existing !== null) return existing;
    const samples = await sampleWorkspace(dataDir);
    if (samples === null) return ready();
    samplesRoot = samples.root;
    return samples;
  };
  /** The samples' template's root, once a tool has read there. */
  let samplesRoot: string | null = null;
  const workspace: Workspace = {
    get root() {
      return real?.root ?? lexicalRoot;
    },
    get limits() {
      return real?.limits ?? DEFAULT_LIMITS;
    },
    resolve: async (relativePath) => (await ready()).resolve(relativePath),
    relative: (absolutePath) =>
      real?.relative(absolutePath) ??
      (path.relative(lexicalRoot, absolutePath).split(path.sep).join("/") || "."),
  };
  return {
    workspace,
    tools: (registry) => ({
      names: () => registry.names(),
      get: (name) => registry.get(name),
      describe: () => registry.describe(),
      validate: (name, args) => registry.validate(name, args),
      async run(name, args, context) {
        const tool = registry.get(name);
        if (tool !== undefined && WORKSPACE_FREE.has(tool))
          return registry.run(name, args, { ...context, workspace });
        let target: Workspace;
        try {
          target = await (tool !== undefined && READS_ONLY.has(tool) ? readable() : ready());
        } catch (error) {
          // Like any tool failing unexpectedly (`registry.ts`): said plainly, no server path.
          const raw = error instanceof Error ? error.message : String(error);
          const reason = withoutServerPaths(raw, lexicalRoot);
          return {
            tool: name,
            status: "failure",
            content: `The ${name} tool failed unexpectedly: the workspace could not be made (${reason}).`,
            outcome: "Internal error",
          };
        }
        const result = await registry.run(name, args, { ...context, workspace: target });
        // The template may have been removed while the tool read it (the data directory
        // cleaned up, and perhaps the template made again since): a read of a sample then
        // failed as if the file did not exist. A failed read there is tried once more, from a
        // template made again if need be (a read that fails for its own reason fails twice).
        if (result.status === "failure" && target.root === samplesRoot)
          return registry.run(name, args, { ...context, workspace: await readable() });
        return result;
      },
    }),
  };
}
