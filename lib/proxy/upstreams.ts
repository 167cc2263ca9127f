/**
 * Where each proxy base URL forwards to (docs/capture-proxy.md), from the same server variables the
 * providers read (`lib/providers`). Keys stay here and leave only as a request header to
 * their own upstream, and only when the client sent none.
 */
import { PRESETS } from "../providers/openai-compatible";
import { type ProviderEnv, readVariable, trimSlash } from "../providers/provider";

/** The wire format an upstream speaks, which decides how its answer is read. */
export type UpstreamFormat = "openai" | "anthropic";

export interface Upstream {
  /** The name in the proxy path: `openai`, `anthropic`, `compat`, `ollama`, … */
  name: string;
  format: UpstreamFormat;
  /** The upstream's own `/v1`-level base URL, no trailing slash (may hold user info: never shown). */
  baseURL: string;
  /** The server's key for it, used only when the client sends no credentials. */
  key?: string;
  /** Headers the server adds for this upstream (OpenRouter's `X-Title`). */
  headers: Record<string, string>;
}

export type UpstreamResult =
  | { ok: true; upstream: Upstream }
  | { ok: false; status: 404 | 503; error: string };

const ANTHROPIC_HOST = "https://api.anthropic.com";
const ANTHROPIC_API = `${ANTHROPIC_HOST}/v1`;

/** Every name a proxy path may use, in the order the page lists them. */
export const UPSTREAM_NAMES = ["openai", "anthropic", "compat", ...PRESETS.map((p) => p.id)];

export function resolveUpstream(name: string, env: ProviderEnv): UpstreamResult {
  if (name === "openai") {
    return configured(name, "openai", env, "OPENAI_BASE_URL", "https://api.openai.com/v1", {
      key: "OPENAI_API_KEY",
    });
  }
  if (name === "anthropic") {
    const resolved = configured(name, "anthropic", env, "ANTHROPIC_BASE_URL", ANTHROPIC_API, {
      key: "ANTHROPIC_API_KEY",
    });
    // Anthropic's own SDKs take `ANTHROPIC_BASE_URL` without `/v1`; the AI SDK, which the
    // playground's provider uses, reads Anthropic's own host so too. The proxy does the same,
    // or it forwarded to https://api.anthropic.com/messages (404) where the playground worked.
    if (resolved.ok && resolved.upstream.baseURL === ANTHROPIC_HOST)
      resolved.upstream.baseURL = ANTHROPIC_API;
    return resolved;
  }
  if (name === "compat") {
    if (readVariable(env, "WIRESCOPE_COMPAT_BASE_URL") === undefined) {
      return {
        ok: false,
        status: 503,
        error: "provider: compat is not configured: set WIRESCOPE_COMPAT_BASE_URL.",
      };
    }
    return configured(name, "openai", env, "WIRESCOPE_COMPAT_BASE_URL", "", {
      key: "WIRESCOPE_COMPAT_API_KEY",
    });
  }
  const preset = PRESETS.find((candidate) => candidate.id === name);
  if (preset === undefined) {
    return {
      ok: false,
      status: 404,
      error: `provider: no proxy for "${name}"; use one of ${UPSTREAM_NAMES.join(", ")}.`,
    };
  }
  return configured(name, "openai", env, undefined, preset.baseURL, {
    ...(preset.keyVariable === undefined ? {} : { key: preset.keyVariable }),
    headers: preset.headers ?? {},
  });
}

function configured(
  name: string,
  format: UpstreamFormat,
  env: ProviderEnv,
  baseVariable: string | undefined,
  fallback: string,
  variables: { key?: string; headers?: Record<string, string> },
): UpstreamResult {
  const base =
    (baseVariable === undefined ? undefined : readVariable(env, baseVariable)) ?? fallback;
  const key = variables.key === undefined ? undefined : readVariable(env, variables.key);
  return {
    ok: true,
    upstream: {
      name,
      format,
      baseURL: trimSlash(base),
      ...(key === undefined ? {} : { key }),
      headers: variables.headers ?? {},
    },
  };
}
