/**
 * Writing imported files and forks into a store: the only part of this area that does I/O,
 * and only through the `Store` interface.
 */
import { isPlainObject } from "../protocol/safe-json";
import type { Store, TranscriptMeta } from "../store/store";
import { type ForkPlan, groupByRun } from "./fork";
import type { FileRecord, TranscriptFile, TranscriptHeader } from "./header";
import type { RawDialectChoice } from "./raw-text";

/**
 * Where an import's origin is kept: a relic per imported transcript. Transcripts have no free
 * metadata field yet; a relic survives restarts and costs no schema change.
 */
export const IMPORT_NAMESPACE = "wirescope.imports";

/**
 * What an imported transcript came from: its id in the file, and the fork link it claimed; for
 * a raw text file (no id: `originalId` is empty), how its dialect was chosen.
 */
export interface ImportOrigin {
  originalId: string;
  /** `text`: a raw text file (`raw-text-import.ts`); absent for a transcript file. */
  format?: "text";
  dialect?: RawDialectChoice;
  /** ms since the epoch. */
  importedAt: number;
  /** The file's `parentId` and `forkPoint`, kept as inert metadata: never a link here. */
  parentId?: string;
  forkPoint?: number;
}

/**
 * Stores a parsed transcript file under a new id (the store's), title, dialect, model, system
 * prompt and tools kept, records in their runs. The file's fork link is not trusted: anyone can
 * write any `parentId`, and a link to a transcript here would present the file as a fork of
 * it (forged history in the family tree). It is kept in the origin only. A failed append
 * leaves nothing visible (the half-written transcript is deleted).
 */
export async function importTranscript(
  store: Store,
  file: TranscriptFile,
  now: () => number = Date.now,
): Promise<{ meta: TranscriptMeta; origin: ImportOrigin }> {
  const started = await beginImport(store, file.header, now);
  await appendAll(store, started.meta.id, file.records, "imported");
  await finishImport(store, started.meta.id, started.origin);
  return started;
}

/**
 * Creates the transcript an import fills, hidden (soft-deleted: appends still go in) until
 * `finishImport`, so a refused or failed import never shows half a transcript.
 */
export async function beginImport(
  store: Store,
  header: TranscriptHeader,
  now: () => number = Date.now,
  instanceId?: string,
): Promise<{ meta: TranscriptMeta; origin: ImportOrigin }> {
  const meta = await store.createTranscript({
    title: header.title,
    dialect: header.dialect,
    ...(header.definition === undefined ? {} : { definition: header.definition }),
    model: header.model,
    system: header.system,
    tools: header.tools,
    source: "import",
    // Created hidden, with its writer kept until it is shown (`purgeAbandonedImports`).
    ...(instanceId === undefined ? {} : { importInstance: instanceId }),
  });
  if (instanceId === undefined) await store.deleteTranscript(meta.id);
  const origin: ImportOrigin = { originalId: header.id, importedAt: now() };
  // Never a fork link (a file could name any transcript here): kept as inert metadata only.
  if (header.parentId !== undefined) origin.parentId = header.parentId;
  if (header.forkPoint !== undefined) origin.forkPoint = header.forkPoint;
  return { meta, origin };
}

/**
 * Removes an import that will not finish (refused, failed, cut off) with everything it wrote:
 * hidden since `beginImport`, it would otherwise keep its records on disk for good. A failure
 * to remove it is the store's own (the caller is already failing): left as it is.
 */
export async function abandonImport(store: Store, transcriptId: string): Promise<void> {
  await store.purgeTranscript(transcriptId).catch(() => false);
}

/**
 * Records the origin and shows the imported transcript. Throws when it cannot be shown: an
 * instance took this server for dead (it stalled past its lease) and is purging it.
 */
export async function finishImport(
  store: Store,
  transcriptId: string,
  origin: ImportOrigin,
): Promise<void> {
  await store.relicSet(IMPORT_NAMESPACE, transcriptId, origin);
  if (await store.restoreTranscript(transcriptId)) return;
  await store.relicDelete(IMPORT_NAMESPACE, transcriptId).catch(() => false);
  throw new Error(
    `The import ${JSON.stringify(transcriptId)} was given up while it was written (this server stalled past its lease): import the file again.`,
  );
}

/**
 * Removes the imports whose server died while writing them (hidden, never shown; their
 * instance's lease ended by `now`): the store gives them up (`claimAbandonedImports`), each
 * then purged a few thousand records at a time (`purgeTranscript`), so requests are served
 * meanwhile. A transcript the user deleted is never among them, nor an import a live instance
 * is still writing. Each instance calls it at start and with each lease renewal
 * (lib/server/instance.ts). Returns the ids removed.
 */
export async function purgeAbandonedImports(
  store: Store,
  now: number,
  /** The instance asking: its own imports are never given up (it is alive). */
  instanceId?: string,
): Promise<string[]> {
  const purged: string[] = [];
  for (const id of await store.claimAbandonedImports(now, instanceId))
    if (await store.purgeTranscript(id)) purged.push(id);
  return purged;
}

/** The origin of an imported transcript, or `undefined` for one made here. */
export async function importOriginOf(
  store: Store,
  transcriptId: string,
): Promise<ImportOrigin | undefined> {
  const value = await store.relicGet(IMPORT_NAMESPACE, transcriptId);
  if (!isPlainObject(value) || typeof value.originalId !== "string") return undefined;
  return value as unknown as ImportOrigin;
}

/** Creates the fork a plan describes: linked to its source, which is not touched. */
export async function writeFork(
  store: Store,
  sourceId: string,
  plan: ForkPlan,
  system: string,
  tools: readonly string[],
): Promise<TranscriptMeta> {
  const meta = await store.createTranscript({
    title: plan.title,
    dialect: plan.dialect,
    ...(plan.definition === undefined ? {} : { definition: plan.definition }),
    model: plan.model,
    system,
    tools: [...tools],
    parentId: sourceId,
    forkPoint: plan.forkPoint,
  });
  await appendAll(store, meta.id, plan.records, "fork");
  return meta;
}

async function appendAll(
  store: Store,
  transcriptId: string,
  records: readonly FileRecord[],
  fallbackRunId: string,
): Promise<void> {
  try {
    for (const group of groupByRun(records, fallbackRunId))
      await store.appendRecords(transcriptId, group.runId, group.records);
  } catch (error) {
    await store.deleteTranscript(transcriptId).catch(() => false);
    throw error;
  }
}
