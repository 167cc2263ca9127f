import { anthropicProvider } from "./anthropic";
import { googleProvider } from "./google";
import { openaiProvider } from "./openai";
import { compatibleProvider, PRESETS, presetProvider } from "./openai-compatible";
import type { Provider, ProviderEnv } from "./provider";

/** Every variable a provider reads; the server passes only these to the registry. */
export const PROVIDER_VARIABLES = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "WIRESCOPE_COMPAT_BASE_URL",
  "WIRESCOPE_COMPAT_API_KEY",
  "WIRESCOPE_COMPAT_NAME",
  "OPENROUTER_API_KEY",
] as const;

/** The variables that hold keys: values never to show anywhere. */
export const SECRET_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "WIRESCOPE_COMPAT_API_KEY",
  "OPENROUTER_API_KEY",
] as const;

/** The real providers in the order they are offered, configured from `env` (demo aside). */
export function listProviders(env: ProviderEnv): Provider[] {
  return [
    openaiProvider(env),
    anthropicProvider(env),
    googleProvider(env),
    compatibleProvider(env),
    ...PRESETS.map((preset) => presetProvider(preset, env)),
  ];
}

/** The provider variables out of a whole environment (nothing else travels further). */
export function pickProviderEnv(env: ProviderEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of PROVIDER_VARIABLES) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** The configured keys in `env`, for redaction. */
export function secretsOf(env: ProviderEnv): string[] {
  return SECRET_VARIABLES.flatMap((name) => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? [] : [value];
  });
}
