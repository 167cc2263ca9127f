import { isPlainObject, safeParseJson } from "../protocol/safe-json";
import { listProviders } from "./catalog";
import { DEMO_MODEL_ID, DEMO_MODEL_LABEL, DEMO_PROVIDER } from "./demo-model";
import type { ConfiguredProvider, ProviderEnv } from "./provider";

/** A model to offer: curated (`suggested`), reported by the server, or built in. */
export interface ModelOption {
  id: string;
  source: "suggested" | "server" | "builtin";
}

/** One provider as `GET /api/models` shows it: never a key, never a header. */
export interface ProviderListing {
  id: string;
  label: string;
  configured: boolean;
  /** What to set on the server, for an unconfigured provider: "set OPENAI_API_KEY". */
  configure?: string;
  baseURL?: string;
  defaultModel?: string;
  models: ModelOption[];
  /** Whether an id not in `models` may be typed. */
  freeText: boolean;
  /** Why the server's own model list is missing (unreachable, slow, refused). */
  error?: string;
}

export interface ListModelsOptions {
  fetch?: typeof globalThis.fetch;
  /** How long an OpenAI-compatible server may take to list its models (default 1.5 s). */
  timeoutMs?: number;
}

/** More than this many server models are cut (OpenRouter lists hundreds). */
const MAX_SERVER_MODELS = 500;

/**
 * The most of a `/models` answer read (OpenRouter's, with every model's metadata, is about
 * 1 MB). The timeout alone let a server that never ends its answer fill the server's memory
 * for 1.5 s: tens of MB on loopback, more on a fast network.
 */
export const MAX_MODEL_LIST_BYTES = 8 * 1024 * 1024;

/** The longest model id offered: what `POST /api/runs` takes (`model.id`). */
const MAX_MODEL_ID_CHARS = 256;

/** A model id a run can name: one line, no control characters, not too long. */
function offerable(id: string): boolean {
  return id.length > 0 && id.length <= MAX_MODEL_ID_CHARS && !/\p{Cc}/u.test(id);
}

/**
 * Every provider with its models: the demo model, the curated suggestions of the cloud
 * providers, and what each configured OpenAI-compatible server lists at `/models` (asked in
 * parallel with a short timeout; a failure leaves the suggestions and says why).
 */
export async function listModels(
  env: ProviderEnv,
  { fetch = globalThis.fetch, timeoutMs = 1500 }: ListModelsOptions = {},
): Promise<ProviderListing[]> {
  const demo: ProviderListing = {
    id: DEMO_PROVIDER,
    label: DEMO_MODEL_LABEL,
    configured: true,
    defaultModel: DEMO_MODEL_ID,
    models: [{ id: DEMO_MODEL_ID, source: "builtin" }],
    freeText: false,
  };
  const listings = listProviders(env).map(async (provider): Promise<ProviderListing> => {
    const suggested = provider.suggested.map((id): ModelOption => ({ id, source: "suggested" }));
    const shared = {
      id: provider.id,
      label: provider.label,
      ...(provider.baseURL === undefined ? {} : { baseURL: provider.baseURL }),
      freeText: true,
    };
    if (!provider.configured) {
      return { ...shared, configured: false, configure: provider.configure, models: suggested };
    }
    const configured = {
      ...shared,
      configured: true,
      ...(provider.defaultModel === undefined ? {} : { defaultModel: provider.defaultModel }),
    };
    if (provider.modelsRequest === undefined) return { ...configured, models: suggested };
    const asked = await askServer(provider, fetch, timeoutMs);
    if (!asked.ok) return { ...configured, models: suggested, error: asked.error };
    const listed = new Set(asked.ids);
    const extra = suggested.filter((model) => !listed.has(model.id));
    const server = asked.ids.map((id): ModelOption => ({ id, source: "server" }));
    return { ...configured, models: [...server, ...extra] };
  });
  return [demo, ...(await Promise.all(listings))];
}

type Asked = { ok: true; ids: string[] } | { ok: false; error: string };

/** `GET <baseURL>/models` (OpenAI's `{ data: [{ id }] }`), failing soft with a reason. */
async function askServer(
  provider: ConfiguredProvider,
  fetch: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<Asked> {
  const request = provider.modelsRequest;
  if (request === undefined) return { ok: false, error: "This provider does not list models." };
  const where = provider.baseURL ?? provider.label;
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      headers: request.headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const read = await readCapped(response, MAX_MODEL_LIST_BYTES);
    if (read === null) {
      return {
        ok: false,
        error: `${where} answered with more than ${MAX_MODEL_LIST_BYTES / 1024 / 1024} MB when asked for models; it was not read.`,
      };
    }
    text = read;
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      return { ok: false, error: `${where} did not list its models within ${timeoutMs} ms.` };
    }
    return { ok: false, error: `${where} is not reachable (${reasonOf(error)}).` };
  }
  if (!response.ok) {
    return { ok: false, error: `${where} answered HTTP ${response.status} when asked for models.` };
  }
  const parsed = safeParseJson(text);
  const data = parsed.ok && isPlainObject(parsed.value) ? parsed.value.data : undefined;
  if (!Array.isArray(data)) {
    return { ok: false, error: `${where} did not answer with a model list ({ data: [{ id }] }).` };
  }
  // Each id once (a picker's entries are told apart by it), and only ids a run can name.
  const ids = new Set<string>();
  for (const entry of data) {
    if (isPlainObject(entry) && typeof entry.id === "string" && offerable(entry.id))
      ids.add(entry.id);
  }
  return { ok: true, ids: [...ids].slice(0, MAX_SERVER_MODELS) };
}

/** The body as text, or null once it is over `maxBytes` (the rest is not read). */
async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(next.value);
  }
  return Buffer.concat(parts).toString("utf8");
}

function reasonOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
