import type { z } from "zod";
import type { Workspace } from "./workspace";

/** What every tool run receives: the conversation's workspace and a signal to stop early. */
export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
}

/** A successful run: `content` goes back to the model, `outcome` is one readable line. */
export interface ToolOutput {
  content: unknown;
  outcome: string;
}

export interface Tool<I> {
  name: string;
  /** Shown to the model in the system prompt: what the tool does and when to use it. */
  description: string;
  /** Validated before `run`; also exported as JSON Schema for the system prompt. */
  input: z.ZodType<I>;
  /** Succeeds with a `ToolOutput`, or throws `ToolFailure` with a message for the model. */
  run(input: I, context: ToolContext): Promise<ToolOutput>;
}

/**
 * The one way a tool reports a failure the model caused or can fix (a missing file, a path
 * outside the workspace, bad arithmetic). The message is sent to the model as is, so it says
 * what went wrong and what to do instead. Any other error thrown by a tool is a bug.
 */
export class ToolFailure extends Error {
  override name = "ToolFailure";
}

/** Identity helper so `I` is inferred from the zod schema. */
export function defineTool<I>(tool: Tool<I>): Tool<I> {
  return tool;
}
