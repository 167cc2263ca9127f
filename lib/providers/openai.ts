import { createOpenAI } from "@ai-sdk/openai";
import { displayURL, type Provider, type ProviderEnv, readVariable } from "./provider";

/** Current models (approximate, late 2026): suggestions only, any id may be typed. */
const SUGGESTED = ["gpt-5.5", "gpt-5.4-mini", "gpt-6-sol", "gpt-6-luna", "gpt-4.1", "gpt-4.1-mini"];

/** OpenAI through its chat-completions API (`OPENAI_API_KEY`, optional `OPENAI_BASE_URL`). */
export function openaiProvider(env: ProviderEnv): Provider {
  const base = {
    id: "openai",
    label: "OpenAI",
    suggested: SUGGESTED,
    keyVariable: "OPENAI_API_KEY",
    baseURLVariable: "OPENAI_BASE_URL",
  };
  const apiKey = readVariable(env, "OPENAI_API_KEY");
  if (apiKey === undefined) return { ...base, configured: false, configure: "set OPENAI_API_KEY" };
  const baseURL = readVariable(env, "OPENAI_BASE_URL");
  const openai = createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
  return {
    ...base,
    ...(baseURL === undefined ? {} : { baseURL: displayURL(baseURL) }),
    configured: true,
    defaultModel: SUGGESTED[0],
    model: (id) => openai.chat(id),
    supportsStop: (id) => !isReasoningModel(id),
    secrets: [apiKey],
  };
}

/**
 * OpenAI's reasoning models (o-series, gpt-5 and later except the `-chat` variants) refuse
 * the `stop` parameter with a 400; the same rule the AI SDK uses for their other settings.
 */
export function isReasoningModel(id: string): boolean {
  if (/^o\d+(?:-|$)/.test(id)) return true;
  const gpt = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(id);
  if (gpt === null) return false;
  const chatVariant = gpt[2] === undefined && (gpt[3] ?? "").startsWith("chat");
  return Number(gpt[1]) >= 5 && !chatVariant;
}
