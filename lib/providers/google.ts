import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { type Provider, type ProviderEnv, readVariable } from "./provider";

/** Current models (approximate, late 2026): suggestions only, any id may be typed. */
const SUGGESTED = [
  "gemini-3.5-flash",
  "gemini-pro-latest",
  "gemini-flash-latest",
  "gemini-3.5-flash-lite",
  "gemini-2.5-pro",
];

/** Google's Gemini API (`GOOGLE_GENERATIVE_AI_API_KEY`). */
export function googleProvider(env: ProviderEnv): Provider {
  const base = {
    id: "google",
    label: "Google",
    suggested: SUGGESTED,
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
  };
  const apiKey = readVariable(env, "GOOGLE_GENERATIVE_AI_API_KEY");
  if (apiKey === undefined) {
    return { ...base, configured: false, configure: "set GOOGLE_GENERATIVE_AI_API_KEY" };
  }
  const google = createGoogleGenerativeAI({ apiKey });
  return {
    ...base,
    configured: true,
    defaultModel: SUGGESTED[0],
    model: (id) => google(id),
    // Gemini takes up to five stop sequences on every current model.
    supportsStop: () => true,
    secrets: [apiKey],
  };
}
