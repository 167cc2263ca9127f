import { calculateTool } from "./calculate";
import { editTool } from "./edit";
import { listTool } from "./list";
import { readTool } from "./read";
import { searchTool } from "./search";
import { shellTool } from "./shell";
import type { Tool } from "./tool";
import { writeTool } from "./write";

export interface BuiltinOptions {
  /** Off unless the operator opts in (`WIRESCOPE_ENABLE_SHELL`, read by lib/server's config). */
  shell: boolean;
}

/** The tools every conversation gets, in the order the system prompt lists them. */
export function builtinTools(options: BuiltinOptions): Tool<unknown>[] {
  const tools: Tool<unknown>[] = [
    listTool,
    readTool,
    writeTool,
    editTool,
    searchTool,
    calculateTool,
  ];
  if (options.shell) tools.push(shellTool);
  return tools;
}
