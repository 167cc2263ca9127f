import { mkdir } from "node:fs/promises";
import path from "node:path";
import { seedWorkspace } from "./seed-template";
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
  if (!CONVERSATION_ID.test(conversationId)) {
    throw new Error(
      `Invalid conversation id ${JSON.stringify(conversationId)}: use 1–128 letters, digits, "_" or "-".`,
    );
  }
  const parent = path.join(dataDir, "workspaces");
  const root = path.join(parent, conversationId);
  if (!madeParents.has(parent)) {
    await mkdir(parent, { recursive: true });
    madeParents.add(parent);
  }
  const created = await makeOnce(root).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    // The workspaces directory was removed since: made again.
    madeParents.delete(parent);
    await mkdir(parent, { recursive: true });
    madeParents.add(parent);
    return makeOnce(root);
  });
  if (created) await seedWorkspace(parent, root);
  return createWorkspace(root, limits);
}

/** `workspaces` directories known to exist: not asked for again by every run. */
const madeParents = new Set<string>();

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
