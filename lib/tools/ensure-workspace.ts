import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { SAMPLE_FILES } from "./samples";
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
  await mkdir(parent, { recursive: true });
  // A non-recursive mkdir succeeds exactly once, so only the creator seeds, even under races.
  const created = await mkdir(root).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return false;
      throw error;
    },
  );
  if (created) await seed(root);
  return createWorkspace(root, limits);
}

async function seed(root: string): Promise<void> {
  for (const [file, content] of Object.entries(SAMPLE_FILES)) {
    const absolute = path.join(root, file);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content, "utf8");
  }
}
