/**
 * The proxy's base-URL names (docs/capture-proxy.md), with no imports so the page can list them without
 * pulling in the providers. `upstreams.test.ts` keeps it equal to what the server resolves.
 */
export const PROXY_NAMES = [
  "openai",
  "anthropic",
  "compat",
  "ollama",
  "lmstudio",
  "vllm",
  "llamacpp",
  "openrouter",
] as const;

export type ProxyName = (typeof PROXY_NAMES)[number];

/** `<origin>/proxy/<name>/v1`: what an agent's base URL is set to. */
export function proxyBaseURL(origin: string, name: string): string {
  return `${origin.replace(/\/+$/, "")}/proxy/${name}/v1`;
}
