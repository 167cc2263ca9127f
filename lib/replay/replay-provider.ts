/**
 * The `replay` provider's server side: loading the transcript to play back, and turning a
 * `{ provider: "replay", id: <transcriptId> }` request into a model. The server calls
 * `replaySourceFor` first (it needs the store), then hands `replayProvider(source)` to
 * `resolveModel` (`lib/providers` never imports this area).
 */
import { type DialectDefinition, dialectLabel, sameDialect } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import type { ModelRequest, RegisteredProvider, ResolvedModel } from "../providers/registry";
import { openPagedTranscript } from "../store/paged-transcript";
import type { Store } from "../store/store";
import { createReplayModel, REPLAY_PROVIDER } from "./replay-model";
import { type ReplaySource, replaySourceBuilder } from "./replay-source";

export type ReplaySourceResult =
  | { ok: true; source: ReplaySource | undefined }
  | { ok: false; status: 400 | 404; message: string };

/** Loads the transcript a `replay` request names; other providers need nothing (`undefined`). */
export async function replaySourceFor(
  request: { provider: string; id?: string },
  store: Pick<Store, "readRecords" | "readRecordPages">,
): Promise<ReplaySourceResult> {
  if (request.provider !== REPLAY_PROVIDER) return { ok: true, source: undefined };
  if (request.id === undefined)
    return { ok: false, status: 400, message: "model.id: name the transcript to replay." };
  const transcript = await openPagedTranscript(store, request.id);
  if (transcript === null)
    return {
      ok: false,
      status: 404,
      message: `model.id: no transcript "${request.id}" to replay.`,
    };
  // Read a page at a time: what is kept is the model's raw output, not every record.
  const source = replaySourceBuilder(transcript.meta);
  for await (const page of transcript.pages()) for (const record of page) source.add(record);
  return { ok: true, source: source.result() };
}

/** The `replay` provider, registered with `resolveModel` for one request's loaded source. */
export function replayProvider(source: ReplaySource | undefined): RegisteredProvider {
  return {
    id: REPLAY_PROVIDER,
    resolve: (request, dialect) => resolveReplayModel(request, dialect, source),
  };
}

export function resolveReplayModel(
  request: ModelRequest,
  dialect: Dialect | DialectDefinition,
  source: ReplaySource | undefined,
): ResolvedModel {
  if (source === undefined || source.transcriptId !== request.id) {
    return {
      ok: false,
      field: "model.id",
      message: "The replay provider needs the transcript loaded first (replaySourceFor).",
    };
  }
  if (!sameDialect(source.dialect, dialect)) {
    const recorded = JSON.stringify(source.dialect);
    return {
      ok: false,
      field: "model.id",
      message: `Transcript "${source.transcriptId}" was recorded in the ${dialectLabel(source.dialect)} dialect; replay it with "dialect": ${recorded}.`,
    };
  }
  const paceMs = request.settings?.paceMs;
  return {
    ok: true,
    model: createReplayModel(source, paceMs === undefined ? {} : { paceMs }),
    provider: REPLAY_PROVIDER,
    id: source.transcriptId,
    label: "The replay model",
    stopSequences: [],
    secrets: [],
  };
}

export { REPLAY_PROVIDER } from "./replay-model";
export type { ReplaySource } from "./replay-source";
