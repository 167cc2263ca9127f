/**
 * How each action type runs (docs/dialects/action.md): `tool` through the registry, `relic` as a key-value
 * relic over the store, `workflow` as a configured pipeline of tool steps; `llm` and `agent`
 * are given by the agent loop, which owns the provider and sub-runs.
 */
import { z } from "zod";
import { assertNever } from "../protocol/events";
import type { Store } from "../store/store";
import type { Registry, Workspace } from "../tools";
import { describeIssues } from "../tools/describe-issues";
import type { ActionRun, ActionRunner, ActionRunners } from "./scheduler";
import { runWorkflow, WORKFLOWS, type Workflow } from "./workflows";

export type RelicStore = Pick<Store, "relicGet" | "relicSet" | "relicDelete">;

export interface ActionRunnerOptions {
  registry: Registry;
  workspace: Workspace;
  store: RelicStore;
  /** Defaults to the shipped `WORKFLOWS`. */
  workflows?: readonly Workflow[];
  llm: ActionRunner;
  agent: ActionRunner;
}

export function createActionRunners(options: ActionRunnerOptions): ActionRunners {
  const { registry, workspace, store, llm, agent } = options;
  const workflows = options.workflows ?? WORKFLOWS;
  return {
    tool: (call, args, signal) => registry.run(call.call.name, args, { workspace, signal }),
    relic: (call, args) => runRelic(store, call.call.name, args),
    workflow: (call, args, signal) =>
      runWorkflow(workflows, call.call.name, args, {
        registry,
        context: { workspace, signal },
      }),
    llm,
    agent,
  };
}

const key = z.string().min(1);
const relicInput = z.discriminatedUnion("operation", [
  z.strictObject({ operation: z.literal("get"), key }),
  z.strictObject({
    operation: z.literal("set"),
    key,
    value: z.unknown().refine((value) => value !== undefined, "a value to store is required"),
    ttl: z.number().positive().optional(),
  }),
  z.strictObject({ operation: z.literal("delete"), key }),
]);

/** A key-value relic: the action's `name` is the namespace. Never throws. */
export async function runRelic(
  store: RelicStore,
  namespace: string,
  args: Record<string, unknown>,
): Promise<ActionRun> {
  const parsed = relicInput.safeParse(args);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues, args);
    const content = `Invalid relic parameters: ${problems}. Use {"operation": "get" | "set" | "delete", "key", "value"?, "ttl"? (seconds)}.`;
    return { tool: namespace, status: "failure", content, outcome: "Invalid relic call" };
  }
  const input = parsed.data;
  const where = `${JSON.stringify(input.key)} in relic "${namespace}"`;
  try {
    switch (input.operation) {
      case "get": {
        const value = await store.relicGet(namespace, input.key);
        const outcome = value === undefined ? `No value for ${where}` : `Read ${where}`;
        return { tool: namespace, status: "success", content: value ?? null, outcome };
      }
      case "set": {
        await store.relicSet(namespace, input.key, input.value, input.ttl);
        const lasting = input.ttl === undefined ? "" : ` for ${input.ttl} s`;
        const content = { key: input.key, stored: true, ttl: input.ttl ?? null };
        return {
          tool: namespace,
          status: "success",
          content,
          outcome: `Stored ${where}${lasting}`,
        };
      }
      case "delete": {
        const deleted = await store.relicDelete(namespace, input.key);
        const outcome = deleted ? `Deleted ${where}` : `No value for ${where} to delete`;
        return {
          tool: namespace,
          status: "success",
          content: { key: input.key, deleted },
          outcome,
        };
      }
      default:
        return assertNever(input, "relic operation");
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { tool: namespace, status: "failure", content: reason, outcome: "Relic error" };
  }
}
