import type { ProtocolEvent, TokenStep } from "../protocol/events";

/** A rough token count for text whose provider reports no usage (the demo model, failures). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Per-turn and running totals, emitted as one `metric` event per model turn. */
export class MetricTracker {
  turns = 0;
  private input = 0;
  private output = 0;
  private durationMs = 0;

  add(
    emit: (event: ProtocolEvent) => void,
    newId: () => string,
    timestamp: number,
    step: TokenStep,
  ): void {
    this.turns += 1;
    this.input += step.input;
    this.output += step.output;
    this.durationMs += step.durationMs;
    const total = { input: this.input, output: this.output, durationMs: this.durationMs };
    emit({ type: "metric", id: newId(), timestamp, step, total });
  }
}
