import { createHash } from "node:crypto";
import { constants } from "node:fs";
import {
  access,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { SAMPLE_FILES } from "./samples";

const FILES = Object.entries(SAMPLE_FILES);

/**
 * The sample files' directories grouped by depth (`[["notes", "src"]]`): each group's parents
 * exist once the group before it is made.
 */
const LEVELS = byDepth([...new Set(FILES.flatMap(([file]) => ancestors(path.dirname(file))))]);

/**
 * Named after the samples' content, so a template left by an earlier process (or made by
 * another instance on the same data directory) is used only when it holds these samples.
 * Conversation ids never start with a dot, so it cannot be a conversation's workspace.
 */
export const TEMPLATE_NAME = `.seed-${createHash("sha256").update(JSON.stringify(FILES)).digest("hex").slice(0, 16)}`;

/** Copies that share nothing with the template (a clone where the file system can, else a copy). */
const COPY_FLAGS = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;

/** The template directory of each `workspaces` directory, made once per process. */
const templates = new Map<string, Promise<string | null>>();

/**
 * Writes the sample files into `root`, an empty directory just made. Each file is copied from
 * a seeded template directory beside the workspaces (made once per process): one thread-pool
 * call a file instead of writeFile's three (open, write, close), and the directories made
 * once each; `bench/seed-workspace.ts` measures both ways. The copies are files of their own
 * (not links), so a tool or a shell command changing one never changes the template or
 * another conversation's files. A missing template is made again; a template that cannot be
 * made or read is not needed: the samples are written from memory instead.
 */
export async function seedWorkspace(parent: string, root: string): Promise<void> {
  const template = await templateIn(parent);
  for (const level of LEVELS) {
    await Promise.all(level.map((directory) => mkdir(path.join(root, directory))));
  }
  await Promise.all(
    FILES.map(async ([file, content]) => {
      const target = path.join(root, file);
      if (template !== null) {
        try {
          await copyFile(path.join(template, file), target, COPY_FLAGS);
          return;
        } catch {
          // Gone or changed under us: made again for the next workspace; this file from memory.
          templates.delete(parent);
        }
      }
      await writeFile(target, content, "utf8");
    }),
  );
}

/**
 * The template of the samples in `parent` (made when missing), for reading only: what a new
 * conversation's workspace would hold. Null when it cannot be made.
 */
export async function sampleTemplate(parent: string): Promise<string | null> {
  const template = await templateIn(parent);
  if (template !== null) {
    try {
      await access(template);
      return template;
    } catch {
      // Removed since this process made it: made again below.
    }
  }
  templates.delete(parent);
  return templateIn(parent);
}

function templateIn(parent: string): Promise<string | null> {
  let template = templates.get(parent);
  if (template === undefined) {
    template = makeTemplate(parent).catch(() => null);
    templates.set(parent, template);
  }
  return template;
}

/** The template of these samples in `parent`: an earlier one if it holds them, else a new one. */
async function makeTemplate(parent: string): Promise<string> {
  const named = path.join(parent, TEMPLATE_NAME);
  if (await holdsSamples(named)) return named;
  // Written under a name of its own and renamed when complete: no reader sees half a template.
  const fresh = await mkdtemp(path.join(parent, ".seed-new-"));
  for (const level of LEVELS) {
    await Promise.all(level.map((directory) => mkdir(path.join(fresh, directory))));
  }
  await Promise.all(
    FILES.map(([file, content]) => writeFile(path.join(fresh, file), content, "utf8")),
  );
  try {
    await rename(fresh, named);
    return named;
  } catch {
    // Another process made it first, or an old or altered template is in the way.
    if (await holdsSamples(named)) {
      await rm(fresh, { recursive: true, force: true });
      return named;
    }
    return replaceTemplate(named, fresh);
  }
}

/**
 * Puts `fresh` where a template that no longer holds the samples was (moved aside, then
 * deleted), so no process start leaves a new directory behind; `fresh` as it is when that fails.
 */
async function replaceTemplate(named: string, fresh: string): Promise<string> {
  const stale = `${fresh}-stale`;
  try {
    await rename(named, stale);
    await rename(fresh, named);
  } catch {
    return fresh;
  }
  await rm(stale, { recursive: true, force: true });
  return named;
}

async function holdsSamples(directory: string): Promise<boolean> {
  try {
    const contents = await Promise.all(
      FILES.map(([file]) => readFile(path.join(directory, file), "utf8")),
    );
    return contents.every((content, index) => content === FILES[index]?.[1]);
  } catch {
    return false;
  }
}

function byDepth(directories: readonly string[]): string[][] {
  const grouped = new Map<number, string[]>();
  for (const directory of directories) {
    const group = grouped.get(depth(directory)) ?? [];
    group.push(directory);
    grouped.set(depth(directory), group);
  }
  return [...grouped.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
}

function ancestors(directory: string): string[] {
  if (directory === "." || directory === "") return [];
  return [...ancestors(path.dirname(directory)), directory];
}

function depth(directory: string): number {
  return directory.split("/").length;
}
