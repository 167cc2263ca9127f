import type { LanguageModelV3 } from "@ai-sdk/provider";

/** The server's environment variables (only ever read on the server). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

interface ProviderBase {
  /** The id a request names: `openai`, `anthropic`, `google`, `compat`, `ollama`, … */
  id: string;
  /** A name for people: "OpenAI", "Ollama (local)". */
  label: string;
  /** Curated model ids, offered as suggestions (any other id may be typed). */
  suggested: readonly string[];
  /** Where requests go, without credentials; undefined for the provider's own default. */
  baseURL?: string;
  /** The server variable that sets the base URL, when there is one. */
  baseURLVariable?: string;
  /** The server variable that holds the key, when the provider takes one. */
  keyVariable?: string;
}

/** A provider the server can call: everything needed to build a model, key included. */
export interface ConfiguredProvider extends ProviderBase {
  configured: true;
  /** The model used when a request names none; undefined → the request must name one. */
  defaultModel?: string;
  model(id: string): LanguageModelV3;
  /** Whether this model takes stop sequences (some reasoning models refuse them). */
  supportsStop(id: string): boolean;
  /** OpenAI-compatible servers list their models at `<baseURL>/models`; this asks there. */
  modelsRequest?: { url: string; headers: Record<string, string> };
  /** Values never to show anywhere (the key). */
  secrets: readonly string[];
}

/** A provider whose variables are not set: `configure` says which to set. */
export interface UnconfiguredProvider extends ProviderBase {
  configured: false;
  configure: string;
}

export type Provider = ConfiguredProvider | UnconfiguredProvider;

/** A variable's value, trimmed; empty counts as unset. */
export function readVariable(env: ProviderEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** A base URL as it may be shown: no user info, no query, no trailing slash. */
export function displayURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(an invalid URL)";
  }
}

/** `url` without a trailing slash, so `${base}/models` never doubles it. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
