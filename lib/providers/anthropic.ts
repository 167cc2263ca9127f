import { createAnthropic } from "@ai-sdk/anthropic";
import { displayURL, type Provider, type ProviderEnv, readVariable } from "./provider";

/** Current models (approximate, late 2026): suggestions only, any id may be typed. */
const SUGGESTED = [
  "claude-sonnet-5-5",
  "claude-opus-5-5",
  "claude-haiku-5-5",
  "claude-sonnet-4-6",
  "claude-haiku-4-5",
];

/** Anthropic's messages API (`ANTHROPIC_API_KEY`, optional `ANTHROPIC_BASE_URL`). */
export function anthropicProvider(env: ProviderEnv): Provider {
  const base = {
    id: "anthropic",
    label: "Anthropic",
    suggested: SUGGESTED,
    keyVariable: "ANTHROPIC_API_KEY",
    baseURLVariable: "ANTHROPIC_BASE_URL",
  };
  const apiKey = readVariable(env, "ANTHROPIC_API_KEY");
  if (apiKey === undefined) {
    return { ...base, configured: false, configure: "set ANTHROPIC_API_KEY" };
  }
  const baseURL = readVariable(env, "ANTHROPIC_BASE_URL");
  const anthropic = createAnthropic({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
  return {
    ...base,
    ...(baseURL === undefined ? {} : { baseURL: displayURL(baseURL) }),
    configured: true,
    defaultModel: SUGGESTED[0],
    model: (id) => anthropic.messages(id),
    supportsStop: () => true,
    secrets: [apiKey],
  };
}
