import { z } from "zod";
import type { ResultPayload } from "../protocol/events";
import { MAX_JSON_DEPTH, tooDeep } from "../protocol/safe-json";
import { describeIssues } from "./describe-issues";
import { type Tool, type ToolContext, ToolFailure } from "./tool";

export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12, without the `$schema` key) of the arguments the model sends. */
  inputSchema: Record<string, unknown>;
}

export type Validation =
  | { ok: true; tool: Tool<unknown>; input: unknown }
  | { ok: false; message: string };

/** A finished run, ready to become a `result` payload once the runtime adds `durationMs`. */
export type ToolRun = Omit<ResultPayload, "durationMs"> & { status: "success" | "failure" };

export interface Registry {
  names(): string[];
  get(name: string): Tool<unknown> | undefined;
  /** For the system prompt: every tool with its JSON Schema. */
  describe(): ToolDescription[];
  /** Checks the tool exists and the arguments match its schema (docs/tools-and-context.md), without running it. */
  validate(name: string, args: unknown): Validation;
  /** Validates and runs one call. Never throws: every outcome is a success or a failure. */
  run(name: string, args: unknown, context: ToolContext): Promise<ToolRun>;
}

export function createRegistry(tools: readonly Tool<unknown>[]): Registry {
  const byName = new Map<string, Tool<unknown>>();
  for (const tool of tools) {
    if (byName.has(tool.name)) {
      throw new Error(`Two tools are named "${tool.name}"; give each tool a unique name.`);
    }
    byName.set(tool.name, tool);
  }
  const names = () => [...byName.keys()];

  const validate = (name: string, args: unknown): Validation => {
    const tool = byName.get(name);
    if (tool === undefined) {
      return {
        ok: false,
        message: `Unknown tool "${name}". Available tools: ${names().join(", ")}.`,
      };
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const problems = describeIssues(parsed.error.issues, args);
      return { ok: false, message: `Invalid arguments for "${name}": ${problems}.` };
    }
    return { ok: true, tool, input: parsed.data };
  };

  return {
    names,
    get: (name) => byName.get(name),
    describe: () =>
      [...byName.values()].map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: toInputSchema(tool.input),
      })),
    validate,
    async run(name, args, context) {
      const validation = validate(name, args);
      if (!validation.ok) return failure(name, validation.message, "Invalid call");
      try {
        const output = await validation.tool.run(validation.input, context);
        // A result is stored and exported: one nested past the limit is not kept.
        if (tooDeep(output.content) !== undefined) {
          const message = `The ${name} tool's result nests deeper than ${MAX_JSON_DEPTH} levels; it was not kept.`;
          return failure(name, message, "Result too deep");
        }
        return { tool: name, status: "success", content: output.content, outcome: output.outcome };
      } catch (error) {
        if (error instanceof ToolFailure)
          return failure(name, error.message, firstLine(error.message));
        if (context.signal.aborted) return failure(name, "The call was cancelled.", "Cancelled");
        // Not the model's doing: keep the run going, but say plainly that the tool broke. The
        // message may name server paths: the workspace's own is shown as the workspace root.
        const raw = error instanceof Error ? error.message : String(error);
        const reason = withoutServerPaths(raw, context.workspace.root);
        return failure(name, `The ${name} tool failed unexpectedly: ${reason}`, "Internal error");
      }
    },
  };
}

/** Converted once per schema: every run describes its tools, and zod's conversion is not cheap. */
const inputSchemas = new WeakMap<z.ZodType<unknown>, Record<string, unknown>>();

/** A tool's JSON Schema, shared by every caller: read it, never change it. */
function toInputSchema(schema: z.ZodType<unknown>): Record<string, unknown> {
  const known = inputSchemas.get(schema);
  if (known !== undefined) return known;
  // "input": fields with defaults are optional for the model, which is what it may send.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" });
  inputSchemas.set(schema, rest);
  return rest;
}

function failure(tool: string, message: string, outcome: string): ToolRun {
  return { tool, status: "failure", content: message, outcome };
}

function firstLine(message: string): string {
  const line = message.split("\n", 1)[0] ?? message;
  return line.length <= 120 ? line : `${line.slice(0, 119)}…`;
}

/**
 * `text` with the workspace root written as `.` (its paths become workspace-relative) and any
 * other absolute path cut to its last part, so no server path reaches the model or the user.
 */
export function withoutServerPaths(text: string, root: string): string {
  return text
    .replaceAll(`${root}/`, "")
    .replaceAll(root, ".")
    .replace(/(^|[\s'"(=])\/(?:[^\s'"/)]+\/)+([^\s'"/)]*)/g, "$1…/$2");
}
