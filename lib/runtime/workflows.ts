/**
 * Workflows of the action dialect (`type="workflow"`, docs/dialects/action.md): named pipelines of tool steps,
 * from configuration. A step's args may reference the action's parameters (`$input.x`, or
 * `$input` for all of them) and earlier steps' outputs (`$steps.0` is the first step's content),
 * with the same exact/embedded rules as `$name` variables.
 */
import type { Registry, ToolContext } from "../tools";
import type { ActionRun } from "./scheduler";
import { referenceSyntax, substitute } from "./variables";

export interface WorkflowStep {
  tool: string;
  args: Record<string, unknown>;
  /** A failing optional step is recorded and the pipeline goes on. */
  optional?: boolean;
}

export interface Workflow {
  name: string;
  /** For the system prompt: what it does and which parameters it takes. */
  description: string;
  /** Parameters the action may leave out. */
  defaults?: Record<string, unknown>;
  steps: readonly WorkflowStep[];
}

export interface StepRecord {
  step: number;
  tool: string;
  args: Record<string, unknown>;
  status: ActionRun["status"];
  outcome: string;
  content: unknown;
}

/** The workflows shipped with Wirescope. */
export const WORKFLOWS: readonly Workflow[] = [
  {
    name: "inspect_workspace",
    description:
      'Orient in the workspace: list every file under `path` (default "."), read README.md ' +
      'if there is one, and search for `query` (default "TODO").',
    defaults: { path: ".", query: "TODO" },
    steps: [
      { tool: "list", args: { path: "$input.path", recursive: true } },
      { tool: "read", args: { file: "README.md" }, optional: true },
      { tool: "search", args: { query: "$input.query", path: "$input.path" } },
    ],
  },
];

const STEP_REFERENCE = referenceSyntax("\\$((?:input|steps)(?:\\.[A-Za-z0-9_]+)?)");

export interface WorkflowContext {
  registry: Registry;
  context: ToolContext;
}

/** Runs `name` from `workflows` with the action's parameters as input. Never throws. */
export async function runWorkflow(
  workflows: readonly Workflow[],
  name: string,
  parameters: Record<string, unknown>,
  { registry, context }: WorkflowContext,
): Promise<ActionRun> {
  const workflow = workflows.find((candidate) => candidate.name === name);
  if (workflow === undefined) {
    const available = workflows.map((candidate) => candidate.name).join(", ") || "none";
    const content = `Unknown workflow "${name}". Available workflows: ${available}.`;
    return { tool: name, status: "failure", content, outcome: "Unknown workflow" };
  }
  const input = { ...workflow.defaults, ...parameters };
  const references = new Map<string, unknown>([["input", input]]);
  for (const [key, value] of Object.entries(input)) references.set(`input.${key}`, value);
  const steps: StepRecord[] = [];
  const total = workflow.steps.length;
  for (const [index, step] of workflow.steps.entries()) {
    const at = `Step ${index + 1} of ${total} (${step.tool})`;
    if (context.signal.aborted) {
      const content = { workflow: name, steps, cancelled: true };
      return { tool: name, status: "failure", content, outcome: `Cancelled before ${at}` };
    }
    const substituted = substitute(step.args, references, STEP_REFERENCE);
    const args = substituted.value as Record<string, unknown>;
    const run =
      substituted.unknown.length === 0
        ? await registry.run(step.tool, args, context)
        : unresolved(step.tool, substituted.unknown);
    const { status, outcome, content } = run;
    steps.push({ step: index, tool: step.tool, args, status, outcome, content });
    if (run.status === "success") references.set(`steps.${index}`, run.content);
    else if (!step.optional) {
      const content = { workflow: name, steps };
      return { tool: name, status: "failure", content, outcome: `${at} failed: ${run.outcome}` };
    }
  }
  const failed = steps.filter((step) => step.status !== "success").length;
  const outcome = `Ran ${total} steps of ${name}${failed > 0 ? ` (${failed} optional failed)` : ""}`;
  return { tool: name, status: "success", content: { workflow: name, steps }, outcome };
}

function unresolved(tool: string, names: readonly string[]) {
  const listed = names.map((reference) => `$${reference}`).join(", ");
  return {
    tool,
    status: "failure" as const,
    content: `The step references ${listed}, which has no value: pass it as a parameter of the workflow action.`,
    outcome: `Unresolved ${listed}`,
  };
}
