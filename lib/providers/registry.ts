import type { LanguageModel } from "ai";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { listProviders } from "./catalog";
import { createDemoModel, DEMO_MODEL_ID, DEMO_PROVIDER } from "./demo-model";
import type { ProviderEnv } from "./provider";
import { withServerPartsAsText } from "./server-parts";
import { dialectStopSequences } from "./stop-sequences";

export interface ModelRequest {
  provider: string;
  id?: string;
  /** Provider-specific knobs; for `demo`, `paceMs` between streamed pieces. */
  settings?: { paceMs?: number };
}

export interface ResolvedProviderModel {
  ok: true;
  model: LanguageModel;
  provider: string;
  id: string;
  /** A name for people, for error messages: "OpenAI". */
  label: string;
  /** The dialect's stop sequences when this model takes them, else none. */
  stopSequences: readonly string[];
  keyVariable?: string;
  baseURL?: string;
  baseURLVariable?: string;
  /** Values never to show (the provider's key). */
  secrets: readonly string[];
}

export type ResolvedModel =
  | ResolvedProviderModel
  | { ok: false; field: "model.provider" | "model.id"; message: string };

export interface ProviderEnvironment {
  /** Default pace of the demo model in ms between pieces (`WIRESCOPE_DEMO_PACE_MS`). */
  demoPaceMs?: number;
  /** The server's provider variables (`OPENAI_API_KEY`, …); none set → only local ones. */
  env?: ProviderEnv;
  /**
   * Providers other areas register (the `replay` provider of `lib/replay`, wired by the
   * server): asked first, by id. This area never imports them, so layers stay one-way.
   */
  providers?: readonly RegisteredProvider[];
}

/** A provider added from outside this area: it resolves requests naming its `id`. */
export interface RegisteredProvider {
  id: string;
  resolve(request: ModelRequest, dialect: Dialect | DialectDefinition): ResolvedModel;
}

/**
 * `{ provider, id }` → an AI SDK model: the built-in offline `demo`, or a real provider
 * configured from the server's variables. An unknown or unconfigured provider, or a missing
 * model id where there is no default, is a failure that says what to set or send.
 */
export function resolveModel(
  request: ModelRequest,
  dialect: Dialect | DialectDefinition,
  environment: ProviderEnvironment = {},
): ResolvedModel {
  const registered = environment.providers?.find((candidate) => candidate.id === request.provider);
  if (registered !== undefined) return registered.resolve(request, dialect);
  if (request.provider === DEMO_PROVIDER) {
    const paceMs = request.settings?.paceMs ?? environment.demoPaceMs;
    const model = createDemoModel({ dialect, ...(paceMs === undefined ? {} : { paceMs }) });
    const id = request.id ?? DEMO_MODEL_ID;
    return {
      ok: true,
      model,
      provider: DEMO_PROVIDER,
      id,
      label: "The demo model",
      stopSequences: [],
      secrets: [],
    };
  }
  const providers = listProviders(environment.env ?? {});
  const provider = providers.find((candidate) => candidate.id === request.provider);
  if (provider === undefined) {
    const ids = [DEMO_PROVIDER, ...providers.map((candidate) => candidate.id)].join(", ");
    return {
      ok: false,
      field: "model.provider",
      message: `Unknown provider "${request.provider}". Available: ${ids}.`,
    };
  }
  if (!provider.configured) {
    return {
      ok: false,
      field: "model.provider",
      message: `${provider.label} is not configured on this server: ${provider.configure} (see .env.example) and restart it.`,
    };
  }
  const id = request.id ?? provider.defaultModel;
  if (id === undefined) {
    return {
      ok: false,
      field: "model.id",
      message: `Name a model for ${provider.label}; GET /api/models lists what the server offers.`,
    };
  }
  return {
    ok: true,
    // What a server parsed out of the text (reasoning, native calls): back in the text.
    model: withServerPartsAsText(provider.model(id), dialect),
    provider: provider.id,
    id,
    label: provider.label,
    stopSequences: provider.supportsStop(id) ? dialectStopSequences(dialect) : [],
    secrets: provider.secrets,
    ...(provider.keyVariable === undefined ? {} : { keyVariable: provider.keyVariable }),
    ...(provider.baseURL === undefined ? {} : { baseURL: provider.baseURL }),
    ...(provider.baseURLVariable === undefined
      ? {}
      : { baseURLVariable: provider.baseURLVariable }),
  };
}
