import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { type ModelRequest, type ResolvedProviderModel, resolveModel } from "../providers";
import { replayProvider, replaySourceFor } from "../replay/replay-provider";
import type { Store } from "../store";
import type { ServerConfig } from "./config";

export type RunModel = ResolvedProviderModel | { ok: false; status: number; message: string };

/**
 * The model a run would use, or why it cannot (a 4xx naming the field): the built-in providers,
 * the configured ones, and `replay` (which needs its recorded transcript). Asked by a run before
 * it starts and by a fork before it offers one, so a fork never offers a model no run accepts.
 */
export async function resolveRunModel(
  request: ModelRequest,
  dialect: Dialect | DialectDefinition,
  { store, config }: { store: Store; config: ServerConfig },
): Promise<RunModel> {
  const replay = await replaySourceFor(request, store);
  if (!replay.ok) return { ok: false, status: replay.status, message: replay.message };
  const resolved = resolveModel(request, dialect, {
    ...(config.demoPaceMs === undefined ? {} : { demoPaceMs: config.demoPaceMs }),
    env: config.providerEnv,
    providers: [replayProvider(replay.source)],
  });
  return resolved.ok
    ? resolved
    : { ok: false, status: 400, message: `${resolved.field}: ${resolved.message}` };
}
