/** Building and checking transcript metadata, shared by every store. */
import { DIALECTS } from "../protocol";
import { StoreError } from "./errors";
import {
  type CreateTranscriptInput,
  DEFAULT_TITLE,
  TRANSCRIPT_SOURCES,
  type TranscriptMeta,
  type TranscriptSummary,
} from "./store";

/**
 * The metadata a new transcript gets. Rejects input no caller should send (routes validate
 * user input with zod first), so a bug shows up here rather than as a broken row.
 */
export function newTranscriptMeta(
  input: CreateTranscriptInput,
  id: string,
  now: number,
): TranscriptMeta {
  if (!DIALECTS.includes(input.dialect)) {
    throw new StoreError("invalid", `Unknown dialect ${JSON.stringify(input.dialect)}.`);
  }
  if (input.source !== undefined && !TRANSCRIPT_SOURCES.includes(input.source)) {
    throw new StoreError("invalid", `Unknown source ${JSON.stringify(input.source)}.`);
  }
  if (input.forkPoint !== undefined) {
    if (input.parentId === undefined) {
      throw new StoreError("invalid", "forkPoint needs a parentId: it is a seq of the parent.");
    }
    if (!Number.isSafeInteger(input.forkPoint) || input.forkPoint < 0) {
      throw new StoreError("invalid", "forkPoint must be a seq: an integer ≥ 0.");
    }
  }
  const meta: TranscriptMeta = {
    id,
    title: checkTitle(input.title ?? DEFAULT_TITLE),
    createdAt: now,
    updatedAt: now,
    dialect: input.dialect,
    model: { provider: input.model.provider, id: input.model.id },
    system: input.system ?? "",
    tools: [...(input.tools ?? [])],
    source: input.source ?? "playground",
  };
  if (input.parentId !== undefined) meta.parentId = input.parentId;
  if (input.forkPoint !== undefined) meta.forkPoint = input.forkPoint;
  return meta;
}

/** Titles are trimmed and must keep some text. */
export function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === "") throw new StoreError("invalid", "A transcript title cannot be empty.");
  return trimmed;
}

export function toSummary(meta: TranscriptMeta, recordCount: number): TranscriptSummary {
  const { system: _system, tools: _tools, ...rest } = meta;
  return { ...rest, recordCount };
}
