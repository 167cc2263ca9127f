export { type Evaluation, evaluate } from "./arithmetic";
export { type BuiltinOptions, builtinTools } from "./builtin";
export { calculateTool } from "./calculate";
export { editTool } from "./edit";
export { ensureWorkspace, existingWorkspace, sampleWorkspace } from "./ensure-workspace";
export { type ListEntry, listTool, MAX_LIST_ENTRIES } from "./list";
export { readTool } from "./read";
export {
  createRegistry,
  type Registry,
  type ToolDescription,
  type ToolRun,
  type Validation,
} from "./registry";
export { SAMPLE_FILES } from "./samples";
export { MAX_MATCHES, MAX_SEARCH_FILE_BYTES, searchTool } from "./search";
export { createShellTool, type ShellOptions, type ShellResult, shellTool } from "./shell";
export { defineTool, type Tool, type ToolContext, ToolFailure, type ToolOutput } from "./tool";
export type { EntryType } from "./walk";
export {
  createWorkspace,
  DEFAULT_LIMITS,
  type Workspace,
  type WorkspaceLimits,
} from "./workspace";
export { writeTool } from "./write";
