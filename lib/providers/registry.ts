import type { LanguageModel } from "ai";
import type { Dialect } from "../protocol/events";
import { createDemoModel, DEMO_MODEL_ID, DEMO_PROVIDER } from "./demo-model";

export interface ModelRequest {
  provider: string;
  id?: string;
  /** Provider-specific knobs; for `demo`, `paceMs` between streamed pieces. */
  settings?: { paceMs?: number };
}

export type ResolvedModel =
  | { ok: true; model: LanguageModel; provider: string; id: string }
  | { ok: false; message: string };

export interface ProviderEnvironment {
  /** Default pace of the demo model in ms between pieces (`WIRESCOPE_DEMO_PACE_MS`). */
  demoPaceMs?: number;
}

/**
 * `{ provider, id }` → an AI SDK model. Only the built-in offline model exists so far;
 * real providers (OpenAI, Anthropic, Google, OpenAI-compatible) come with their issue.
 */
export function resolveModel(
  request: ModelRequest,
  dialect: Dialect,
  environment: ProviderEnvironment = {},
): ResolvedModel {
  if (request.provider === DEMO_PROVIDER) {
    const paceMs = request.settings?.paceMs ?? environment.demoPaceMs;
    const model = createDemoModel({ dialect, ...(paceMs === undefined ? {} : { paceMs }) });
    return { ok: true, model, provider: DEMO_PROVIDER, id: request.id ?? DEMO_MODEL_ID };
  }
  return {
    ok: false,
    message: `Unknown provider "${request.provider}". Available: ${DEMO_PROVIDER} (the built-in offline model).`,
  };
}
