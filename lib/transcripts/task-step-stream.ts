import { assertNever, type ProtocolEvent, type ResultEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { StepPart, TaskStep, TaskStepChunk, TextPart } from "./task-step-types";

export interface TaskStepStreamOptions {
  /** `agent_name` of the top-level agent's steps (default "assistant"). */
  agentName?: string;
}

interface OpenStep {
  step: TaskStep;
  /** The call id of the sub-agent run the step belongs to; "" at the top level. */
  level: string;
  turn: number | undefined;
  /** The turn's `end` has arrived / its `metric` has: both mean the turn is over. */
  ended: boolean;
  measured: boolean;
  /** think/respond event id → index of its text part. */
  texts: Map<string, number>;
}

/**
 * Records in, TaskStep chunks out (docs/transcript-file.md): an adapter for clients that want the TaskSteps
 * stream instead of Wirescope records. One step per model turn, opened by the turn's first
 * event; think/respond pieces become `text_part_delta`s, calls `tool_call_part`s, results
 * `tool_result_part`s in the step of their call. A step is final (`step_final`) when its turn
 * ended and was measured, when the next turn of the same agent starts, when the sub-agent it
 * belongs to answers, at an interrupt or a new user message, or at `end()`. A user message
 * is a one-part step of agent "user". Chunks and requests carry nothing a step shows.
 * Pure and incremental: `push` returns only what this record adds.
 */
export class TaskStepStream {
  private readonly agentName: string;
  private readonly open = new Map<string, OpenStep>();
  private readonly current = new Map<string, OpenStep>();
  private readonly byTurn = new Map<number, OpenStep>();
  private readonly stepOfCall = new Map<string, string>();
  private readonly callNames = new Map<string, string>();
  private readonly used = new Set<string>();
  /** Every step so far, in the order they were opened. */
  readonly steps: TaskStep[] = [];

  constructor(options: TaskStepStreamOptions = {}) {
    this.agentName = options.agentName ?? "assistant";
  }

  push(record: TranscriptRecord): TaskStepChunk[] {
    const out: TaskStepChunk[] = [];
    if (record.kind === "event") this.event(record.event, out);
    return out;
  }

  /**
   * The steps opened first that are final by now, in the order they were opened, handed over
   * once: a final step never changes again, so a caller writing steps as they settle can let
   * the stream forget them (`steps` then holds only those not taken yet).
   */
  takeSettled(): TaskStep[] {
    let count = 0;
    while (count < this.steps.length && !this.open.has((this.steps[count] as TaskStep).id)) count++;
    return this.steps.splice(0, count);
  }

  /** The end of the records: every open step is final. */
  end(): TaskStepChunk[] {
    const out: TaskStepChunk[] = [];
    for (const open of [...this.open.values()]) this.finish(open, out);
    return out;
  }

  private event(event: ProtocolEvent, out: TaskStepChunk[]): void {
    const level = event.parent ?? "";
    switch (event.type) {
      case "user": {
        // A sub-agent's task is already in the tool_call that started it.
        if (event.parent !== undefined) return;
        for (const open of [...this.open.values()]) this.finish(open, out);
        const user = this.openStep(`user-${event.id}`, "", undefined, event.timestamp, "user");
        user.step.parts.push({ type: "text", text: event.content });
        this.finish(user, out);
        return;
      }
      case "think":
      case "respond": {
        if (event.content === "") return;
        const open = this.turnStep(event.turn, level, event.timestamp, out);
        let index = open.texts.get(event.id);
        if (index === undefined) {
          index = open.step.parts.length;
          open.texts.set(event.id, index);
          open.step.parts.push(
            event.type === "think"
              ? { type: "text", text: "", metadata: { kind: "think" } }
              : { type: "text", text: "" },
          );
        }
        (open.step.parts[index] as TextPart).text += event.content;
        out.push({
          type: "text_part_delta",
          step_id: open.step.id,
          part_index: index,
          delta: event.content,
          ...(event.type === "think" ? { metadata: { kind: "think" as const } } : {}),
        });
        return;
      }
      case "call": {
        const open = this.turnStep(event.turn, level, event.timestamp, out);
        const { id, name, args } = event.call;
        const part: StepPart = { type: "tool_call", tool_call: { id, tool_name: name, args } };
        this.stepOfCall.set(id, open.step.id);
        this.callNames.set(id, name);
        out.push({
          type: "tool_call_part",
          step_id: open.step.id,
          part_index: this.add(open, part),
          part,
        });
        return;
      }
      case "result": {
        const open = this.resultStep(event, level);
        const { status, content, outcome, tool } = event.payload;
        const part: StepPart = {
          type: "tool_result",
          tool_result: {
            tool_call_id: event.callId,
            result: content,
            is_error: status !== "success",
          },
          metadata: { status, outcome, tool },
        };
        out.push({
          type: "tool_result_part",
          step_id: open.step.id,
          part_index: this.add(open, part),
          part,
        });
        // A sub-agent's answer: its own steps are complete.
        this.finishLevel(event.callId, out);
        return;
      }
      case "end": {
        const open =
          event.turn === undefined ? this.current.get(level) : this.byTurn.get(event.turn);
        if (open === undefined) return;
        open.ended = true;
        if (open.measured) this.finish(open, out);
        return;
      }
      case "metric": {
        // The metric closes the turn that just streamed at this level.
        const open = this.current.get(level);
        if (open === undefined || open.measured) return;
        open.measured = true;
        open.step.metadata.usage = { ...event.step };
        if (open.ended) this.finish(open, out);
        return;
      }
      case "error": {
        const open =
          (event.turn === undefined ? undefined : this.byTurn.get(event.turn)) ??
          this.current.get(level) ??
          this.openStep(`errors-${event.id}`, level, undefined, event.timestamp);
        const error = { code: event.code, message: event.message };
        const extra = {
          ...(event.raw === undefined ? {} : { raw: event.raw }),
          ...(event.callId === undefined ? {} : { callId: event.callId }),
        };
        const errors = open.step.metadata.errors ?? [];
        errors.push({ ...error, ...extra });
        open.step.metadata.errors = errors;
        return;
      }
      case "interrupt": {
        const open =
          this.current.get(level) ??
          this.openStep(`interrupt-${event.id}`, level, undefined, event.timestamp);
        open.step.metadata.interrupted = event.reason;
        if (level === "") for (const step of [...this.open.values()]) this.finish(step, out);
        else this.finishLevel(level, out);
        return;
      }
      case "execute":
        return;
      default:
        assertNever(event, "event");
    }
  }

  /** The step of a model turn, opened on its first event (closing the agent's previous one). */
  private turnStep(turn: number, level: string, timestamp: number, out: TaskStepChunk[]): OpenStep {
    const existing = this.byTurn.get(turn);
    if (existing !== undefined) return existing;
    const previous = this.current.get(level);
    if (previous !== undefined) this.finish(previous, out);
    const open = this.openStep(`step-${turn}`, level, turn, timestamp);
    this.byTurn.set(turn, open);
    this.current.set(level, open);
    return open;
  }

  /** A result goes in its call's step; if that one is final already, in the agent's current one. */
  private resultStep(event: ResultEvent, level: string): OpenStep {
    const callStep = this.stepOfCall.get(event.callId);
    const open =
      (callStep === undefined ? undefined : this.open.get(callStep)) ??
      (event.turn === undefined ? undefined : this.byTurn.get(event.turn)) ??
      this.current.get(level);
    if (open !== undefined) return open;
    return this.openStep(`results-${event.id}`, level, event.turn, event.timestamp);
  }

  private openStep(
    base: string,
    level: string,
    turn: number | undefined,
    timestamp: number,
    agentName?: string,
  ): OpenStep {
    let id = base;
    for (let copy = 2; this.used.has(id); copy++) id = `${base}.${copy}`;
    this.used.add(id);
    const step: TaskStep = {
      id,
      parent_id: level === "" ? null : (this.stepOfCall.get(level) ?? null),
      agent_name:
        agentName ?? (level === "" ? this.agentName : (this.callNames.get(level) ?? "agent")),
      parts: [],
      created_at: isoTime(timestamp),
      metadata: turn === undefined ? {} : { turn },
    };
    const open: OpenStep = { step, level, turn, ended: false, measured: false, texts: new Map() };
    this.open.set(id, open);
    this.steps.push(step);
    return open;
  }

  private add(open: OpenStep, part: StepPart): number {
    open.step.parts.push(part);
    return open.step.parts.length - 1;
  }

  private finishLevel(level: string, out: TaskStepChunk[]): void {
    for (const open of [...this.open.values()]) if (open.level === level) this.finish(open, out);
  }

  private finish(open: OpenStep, out: TaskStepChunk[]): void {
    if (!this.open.delete(open.step.id)) return;
    if (open.turn !== undefined && this.byTurn.get(open.turn) === open)
      this.byTurn.delete(open.turn);
    if (this.current.get(open.level) === open) this.current.delete(open.level);
    out.push({ type: "step_final", step: open.step });
  }
}

/**
 * `toTaskSteps` of records read a page at a time: after each page, the steps settled so far.
 * Holds the steps still open and those opened after them (a step waits for the ones before
 * it, as the file lists them in the order they were opened).
 */
export async function* taskStepBatches(
  pages: AsyncIterable<readonly TranscriptRecord[]>,
  options: TaskStepStreamOptions = {},
): AsyncGenerator<TaskStep[]> {
  const stream = new TaskStepStream(options);
  for await (const page of pages) {
    for (const record of page) stream.push(record);
    yield stream.takeSettled();
  }
  stream.end();
  yield stream.takeSettled();
}

/** Steps of a whole transcript, in the order they were opened. */
export function toTaskSteps(
  records: readonly TranscriptRecord[],
  options: TaskStepStreamOptions = {},
): TaskStep[] {
  const stream = new TaskStepStream(options);
  for (const record of records) stream.push(record);
  stream.end();
  return stream.steps;
}

function isoTime(ms: number): string {
  const date = new Date(Number.isFinite(ms) ? ms : 0);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}
