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
export { createRandom, splitIntoChunks } from "./random";
export {
  type ModelRequest,
  type ProviderEnvironment,
  type ResolvedModel,
  resolveModel,
} from "./registry";
