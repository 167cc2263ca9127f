/**
 * The TaskStep data model and its stream chunks (docs/transcript-file.md), with the design's
 * snake_case field names so other TaskStep clients read them unchanged.
 */

import type { InterruptReason } from "../protocol/events";

export interface TextPart {
  type: "text";
  text: string;
  /** `{ kind: "think" }` for reasoning; absent for what the model said. */
  metadata?: { kind: "think" };
}

export interface ToolCallPart {
  type: "tool_call";
  tool_call: { id: string; tool_name: string; args: Record<string, unknown> };
}

export interface ToolResultPart {
  type: "tool_result";
  tool_result: { tool_call_id: string; result: unknown; is_error: boolean };
  /** Wirescope's detail: the status (`skipped` is an error too) and the one-line outcome. */
  metadata: { status: "success" | "failure" | "skipped"; outcome: string; tool: string };
}

export type StepPart = TextPart | ToolCallPart | ToolResultPart;

/** What a step's `metadata` may hold besides the turn. */
export interface StepMetadata {
  /** The model turn (absent on user steps). */
  turn?: number;
  /** Token counts and timings of the turn. */
  /** `ttftMs` is absent when the turn got no token. */
  usage?: { input: number; output: number; durationMs: number; ttftMs?: number };
  /** Parser and runtime errors that happened during the step. */
  errors?: { code: string; message: string; raw?: string; callId?: string }[];
  /** Why the run stopped here, when it was interrupted. */
  interrupted?: InterruptReason;
}

/** One step per agent turn; a user message is a step of agent `user`. */
export interface TaskStep {
  id: string;
  /** The step holding the call that started this sub-agent; `null` at the top level. */
  parent_id: string | null;
  agent_name: string;
  parts: StepPart[];
  /** ISO 8601. */
  created_at: string;
  metadata: StepMetadata;
}

/** The stream chunks ; `part_index` says which part of the step a chunk fills. */
export type TaskStepChunk =
  | {
      type: "text_part_delta";
      step_id: string;
      part_index: number;
      delta: string;
      metadata?: { kind: "think" };
    }
  | { type: "tool_call_part"; step_id: string; part_index: number; part: ToolCallPart }
  | { type: "tool_result_part"; step_id: string; part_index: number; part: ToolResultPart }
  | { type: "step_final"; step: TaskStep };
