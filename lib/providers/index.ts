export { PROVIDER_VARIABLES, pickProviderEnv, SECRET_VARIABLES, secretsOf } from "./catalog";
export {
  createDemoModel,
  DEMO_MODEL_ID,
  DEMO_MODEL_LABEL,
  DEMO_PROVIDER,
  type DemoModelOptions,
} from "./demo-model";
export { EXAMPLE_PROMPTS, type Plan, type PlannedCall, planTools } from "./demo-rules";
export { findScenario, SCENARIOS, type Scenario, scenarioTurn } from "./demo-scenarios";
export { scriptTurn } from "./demo-script";
export {
  type ListModelsOptions,
  listModels,
  type ModelOption,
  type ProviderListing,
} from "./model-list";
export type { ProviderEnv } from "./provider";
export { createRandom, splitIntoChunks } from "./random";
export {
  type ModelRequest,
  type ProviderEnvironment,
  type RegisteredProvider,
  type ResolvedModel,
  type ResolvedProviderModel,
  resolveModel,
} from "./registry";
export {
  DIALECT_STOP_SEQUENCES,
  MAX_STOP_SEQUENCES,
  mergeStopSequences,
} from "./stop-sequences";
