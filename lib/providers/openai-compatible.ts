import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type ConfiguredProvider,
  displayURL,
  type Provider,
  type ProviderEnv,
  readVariable,
  trimSlash,
} from "./provider";

/** A known OpenAI-compatible server: selectable by its id with no configuration but a key. */
export interface CompatiblePreset {
  id: string;
  label: string;
  baseURL: string;
  /** The variable holding the key, for servers that need one. */
  keyVariable?: string;
  suggested: readonly string[];
  headers?: Record<string, string>;
}

export const PRESETS: readonly CompatiblePreset[] = [
  { id: "ollama", label: "Ollama (local)", baseURL: "http://127.0.0.1:11434/v1", suggested: [] },
  {
    id: "lmstudio",
    label: "LM Studio (local)",
    baseURL: "http://127.0.0.1:1234/v1",
    suggested: [],
  },
  { id: "vllm", label: "vLLM (local)", baseURL: "http://127.0.0.1:8000/v1", suggested: [] },
  {
    id: "llamacpp",
    label: "llama.cpp server (local)",
    baseURL: "http://127.0.0.1:8080/v1",
    suggested: [],
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    baseURL: "https://openrouter.ai/api/v1",
    keyVariable: "OPENROUTER_API_KEY",
    // Approximate, late 2026: suggestions only, any id may be typed.
    suggested: [
      "openai/gpt-5.5",
      "anthropic/claude-sonnet-5-5",
      "google/gemini-3.5-flash",
      "qwen/qwen3-coder",
      "deepseek/deepseek-chat",
    ],
    headers: { "X-Title": "Wirescope" },
  },
];

/**
 * Any OpenAI-compatible server: `WIRESCOPE_COMPAT_BASE_URL` (e.g. `http://127.0.0.1:8000/v1`),
 * optional `WIRESCOPE_COMPAT_API_KEY`, and `WIRESCOPE_COMPAT_NAME` to label it.
 */
export function compatibleProvider(env: ProviderEnv): Provider {
  const label = readVariable(env, "WIRESCOPE_COMPAT_NAME") ?? "OpenAI-compatible";
  const baseURL = readVariable(env, "WIRESCOPE_COMPAT_BASE_URL");
  const shared = {
    id: "compat",
    label,
    suggested: [],
    keyVariable: "WIRESCOPE_COMPAT_API_KEY",
    baseURLVariable: "WIRESCOPE_COMPAT_BASE_URL",
  };
  if (baseURL === undefined) {
    return { ...shared, configured: false, configure: "set WIRESCOPE_COMPAT_BASE_URL" };
  }
  const apiKey = readVariable(env, "WIRESCOPE_COMPAT_API_KEY");
  return { ...shared, ...connect("compat", baseURL, apiKey) };
}

/** A preset: local servers need nothing; OpenRouter needs `OPENROUTER_API_KEY`. */
export function presetProvider(preset: CompatiblePreset, env: ProviderEnv): Provider {
  const shared = {
    id: preset.id,
    label: preset.label,
    suggested: preset.suggested,
    baseURL: preset.baseURL,
    ...(preset.keyVariable === undefined ? {} : { keyVariable: preset.keyVariable }),
  };
  const apiKey =
    preset.keyVariable === undefined ? undefined : readVariable(env, preset.keyVariable);
  if (preset.keyVariable !== undefined && apiKey === undefined) {
    return { ...shared, configured: false, configure: `set ${preset.keyVariable}` };
  }
  const connection = connect(preset.id, preset.baseURL, apiKey, preset.headers);
  const first = preset.suggested[0];
  return { ...shared, ...connection, ...(first === undefined ? {} : { defaultModel: first }) };
}

type Connection = Pick<
  ConfiguredProvider,
  "configured" | "baseURL" | "model" | "supportsStop" | "modelsRequest" | "secrets"
>;

function connect(
  name: string,
  baseURL: string,
  apiKey: string | undefined,
  headers: Record<string, string> = {},
): Connection {
  const base = trimSlash(baseURL);
  const provider = createOpenAICompatible({
    name,
    baseURL: base,
    includeUsage: true,
    headers,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  return {
    configured: true,
    baseURL: displayURL(base),
    model: (id) => provider.chatModel(id),
    // The servers these presets name all take `stop` (llama.cpp, vLLM, Ollama, LM Studio).
    supportsStop: () => true,
    modelsRequest: {
      url: `${base}/models`,
      headers: {
        ...headers,
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
      },
    },
    secrets: apiKey === undefined ? [] : [apiKey],
  };
}
