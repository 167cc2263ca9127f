import { mkdir } from "node:fs/promises";
import path from "node:path";
import { sampleTemplate, seedWorkspace } from "./seed-template";
import { createWorkspace, type Workspace, type WorkspaceLimits } from "./workspace";

const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The workspace of one conversation, `<dataDir>/workspaces/<conversationId>/`. The first call
 * creates it and writes the sample files; later calls leave its contents alone, even if the
 * user deleted every sample.
 */
export async function ensureWorkspace(
  dataDir: string,
  conversationId: string,
  limits: Partial<WorkspaceLimits> = {},
): Promise<Workspace> {
  const root = workspaceRoot(dataDir, conversationId);
  let made = making.get(root);
  if (made === undefined) {
    made = makeAndSeed(root).finally(() => making.delete(root));
    making.set(root, made);
  }
  await made;
  return createWorkspace(root, limits);
}

async function makeAndSeed(root: string): Promise<void> {
  const parent = path.dirname(root);
  await makeParent(parent);
  const created = await makeOnce(root).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    // The workspaces directory was removed since: made again.
    madeParents.delete(parent);
    await makeParent(parent);
    return makeOnce(root);
  });
  if (created) await seedWorkspace(parent, root);
}

/**
 * The conversation's workspace if it has one (once seeded), else null: nothing is made. A
 * conversation whose tools have only read has none; `sampleWorkspace` reads for it.
 */
export async function existingWorkspace(
  dataDir: string,
  conversationId: string,
  limits: Partial<WorkspaceLimits> = {},
): Promise<Workspace | null> {
  const root = workspaceRoot(dataDir, conversationId);
  let workspace: Workspace;
  try {
    workspace = await createWorkspace(root, limits);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  // Asked after the directory was found, not before: a making that began meanwhile (a write
  // in the same batch) is known from before its mkdir, so an existing directory this process
  // is still seeding is always waited for.
  await making.get(root);
  return workspace;
}

/**
 * What a new conversation's workspace holds, to read from until its first change: the
 * samples' template (`seed-template.ts`), made once per process. Making each conversation's
 * copy costs a dozen file-system calls, mostly the kernel's time creating files (on this
 * machine about 5 ms of CPU a workspace under load, more than the rest of a short run), and a
 * conversation that only lists and reads never needs one. Null when the template cannot be
 * made: the caller makes the workspace instead.
 */
export async function sampleWorkspace(
  dataDir: string,
  limits: Partial<WorkspaceLimits> = {},
): Promise<Workspace | null> {
  const parent = path.join(dataDir, "workspaces");
  await makeParent(parent);
  let template = await sampleTemplate(parent);
  if (template === null) {
    // The workspaces directory may have been removed since: made again, then the template.
    madeParents.delete(parent);
    await makeParent(parent);
    template = await sampleTemplate(parent);
  }
  return template === null ? null : createWorkspace(template, limits);
}

function workspaceRoot(dataDir: string, conversationId: string): string {
  if (!CONVERSATION_ID.test(conversationId)) {
    throw new Error(
      `Invalid conversation id ${JSON.stringify(conversationId)}: use 1–128 letters, digits, "_" or "-".`,
    );
  }
  return path.join(dataDir, "workspaces", conversationId);
}

async function makeParent(parent: string): Promise<void> {
  if (madeParents.has(parent)) return;
  await mkdir(parent, { recursive: true });
  madeParents.add(parent);
}

/** `workspaces` directories known to exist: not asked for again by every run. */
const madeParents = new Set<string>();

/**
 * Workspaces this process is making, by root, from before the directory exists until seeded:
 * a reader waits for the samples, never sees half of them.
 */
const making = new Map<string, Promise<void>>();

/** A non-recursive mkdir succeeds exactly once, so only the creator seeds, even under races. */
function makeOnce(root: string): Promise<boolean> {
  return mkdir(root).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return false;
      throw error;
    },
  );
}
