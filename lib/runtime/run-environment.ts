import { generateText, type LanguageModel } from "ai";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { Registry, Workspace } from "../tools";
import { createActionRunners, type RelicStore } from "./action-runners";
import { type RunOutcome, runAgent, type TurnCounter } from "./agent-loop";
import type { ExecutorOptions } from "./executor";
import type { CallSettings, StreamTurn } from "./model-turn";
import { type ActionRun, type ActionRunner, createScheduler } from "./scheduler";
import { batchExecution, type Emit, type RunExecution, scheduledExecution } from "./turn-execution";

/** Everything a run needs besides its message: shared by a run and the sub-agent runs it starts. */
export interface RunEnvironment {
  dialect: Dialect | DialectDefinition;
  model: LanguageModel;
  modelRef: { provider: string; id: string };
  system: string;
  settings: CallSettings;
  registry: Registry;
  workspace: Workspace;
  relics: RelicStore;
  signal: AbortSignal;
  now: () => number;
  newId: () => string;
  emit: (record: TranscriptRecord) => void;
  turns: TurnCounter;
  maxTurns?: number;
  /** Sub-agent nesting depth: 0 for the user's run. */
  depth?: number;
  parent?: string;
  streamTurn?: StreamTurn;
}

/** Sub-agents may start sub-agents, but not without end. */
export const MAX_AGENT_DEPTH = 2;

/** Runs the agent loop for `message` in `environment` (no message: resume from `history`). */
export function runInEnvironment(
  environment: RunEnvironment,
  message: string | undefined,
  history: readonly ProtocolEvent[] = [],
): Promise<RunOutcome> {
  const { dialect, model, modelRef, system, settings, signal, now, newId, emit, turns } =
    environment;
  return runAgent({
    dialect,
    model,
    modelRef,
    system,
    settings,
    history,
    ...(message === undefined ? {} : { message }),
    signal,
    now,
    newId,
    emit,
    turns,
    execution: executionFor(environment),
    ...(environment.maxTurns === undefined ? {} : { maxTurns: environment.maxTurns }),
    ...(environment.parent === undefined ? {} : { parent: environment.parent }),
    ...(environment.streamTurn === undefined ? {} : { streamTurn: environment.streamTurn }),
  });
}

/** xml/delimiter: a parallel batch at the execute boundary; action: the scheduler (docs/dialects/action.md). */
export function executionFor(environment: RunEnvironment): (emit: Emit) => RunExecution {
  const executor: ExecutorOptions = {
    registry: environment.registry,
    context: { workspace: environment.workspace },
    signal: environment.signal,
    now: environment.now,
    nextId: environment.newId,
  };
  return (emit) => {
    if (environment.dialect !== "action") return batchExecution(executor, emit);
    const runners = createActionRunners({
      registry: environment.registry,
      workspace: environment.workspace,
      store: environment.relics,
      llm: llmRunner(environment.model),
      agent: agentRunner(environment),
    });
    const scheduler = createScheduler({
      runners,
      emit,
      now: environment.now,
      nextId: environment.newId,
      signal: environment.signal,
    });
    return scheduledExecution(scheduler, emit, executor);
  };
}

/** `type="llm"`: one model call with the run's model; its text is the output. */
export function llmRunner(model: LanguageModel): ActionRunner {
  return async (call, args, signal) => {
    const prompt = promptOf(args);
    try {
      const { text } = await generateText({ model, prompt, abortSignal: signal, maxRetries: 0 });
      return {
        tool: call.call.name,
        status: "success",
        content: text,
        outcome: `The model wrote ${text.length} characters`,
      };
    } catch (error) {
      return failure(
        call.call.name,
        `The model call failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
}

/**
 * `type="agent"`: a nested run of the same agent on the task in the parameters. Its events
 * carry the parent call's id (the timeline nests them) and share the run's turn counter;
 * its final response is the output.
 */
export function agentRunner(environment: RunEnvironment): ActionRunner {
  return async (call, args, signal) => {
    const depth = (environment.depth ?? 0) + 1;
    if (depth > MAX_AGENT_DEPTH) {
      return failure(
        call.call.name,
        `Sub-agents can nest ${MAX_AGENT_DEPTH} levels deep; this one would be level ${depth}.`,
      );
    }
    const outcome = await runInEnvironment(
      { ...environment, signal, depth, parent: call.call.id },
      promptOf(args),
    );
    const ok = outcome.reason === "end" || outcome.reason === "no_calls";
    return {
      tool: call.call.name,
      status: ok ? "success" : "failure",
      content: ok
        ? outcome.answer
        : `The sub-agent stopped (${outcome.reason}) after ${outcome.turns} turns. ${outcome.answer}`.trim(),
      outcome: `Sub-agent ${ok ? "answered" : "stopped"} after ${outcome.turns} turns`,
    };
  };
}

/** The task text of an llm/agent action: `prompt`, `task` or `text`, else the parameters as JSON. */
function promptOf(args: Record<string, unknown>): string {
  for (const key of ["prompt", "task", "text", "query"]) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") {
      const rest = Object.fromEntries(Object.entries(args).filter(([name]) => name !== key));
      return Object.keys(rest).length === 0
        ? value
        : `${value}\n\n${JSON.stringify(rest, null, 2)}`;
    }
  }
  return JSON.stringify(args, null, 2);
}

function failure(tool: string, content: string): ActionRun {
  return { tool, status: "failure", content, outcome: content.split(". ")[0] ?? content };
}
