/**
 * An answer's native tool calls (OpenAI `tool_calls`, Anthropic `tool_use`, Responses
 * `function_call` items) as their deltas build them, by their index in the answer, bounded by
 * the recording cap: `TurnRecorder` writes them out in the dialect's syntax when the answer ends.
 */
import type { NativeCall } from "../protocol/written-back";
import type { AnswerDelta } from "./answer-decoder";

/** What opening a native call counts towards the record cap: about its written-out syntax. */
const NEW_CALL_CHARS = 32;

export class NativeCalls {
  private readonly calls = new Map<number, NativeCall>();
  private chars = 0;
  private capped = false;

  constructor(private readonly maxChars: number) {}

  get size(): number {
    return this.calls.size;
  }

  /**
   * Adds a delta to its call: `"capped"` the first time the calls pass `maxChars` (they are
   * dropped then, and every later delta is ignored), `"ok"` otherwise.
   */
  add(delta: Extract<AnswerDelta, { kind: "tool" }>): "ok" | "capped" {
    if (this.capped) return "ok";
    const known = this.calls.get(delta.index);
    // Whole arguments replace the pieces streamed before them: only what they add counts.
    const replaced = delta.whole === true ? (known?.input.length ?? 0) : 0;
    // A new call counts a little too (calls of no text, an index each, were never capped); its
    // id and name count once, when kept (an upstream's ids are as long as it likes).
    const opened = known === undefined ? NEW_CALL_CHARS : 0;
    const id = known?.id === undefined ? (delta.id?.length ?? 0) : 0;
    const name = (known?.name ?? "") === "" ? (delta.name?.length ?? 0) : 0;
    this.chars += opened + delta.args.length - replaced + id + name;
    if (this.chars > this.maxChars) {
      this.capped = true;
      this.calls.clear();
      return "capped";
    }
    const call = known ?? { name: "", input: "" };
    if (delta.id !== undefined) call.id ??= delta.id;
    if (delta.name !== undefined && call.name === "") call.name = delta.name;
    call.input = delta.whole === true ? delta.args : call.input + delta.args;
    this.calls.set(delta.index, call);
    return "ok";
  }

  /** The calls in the order of their index in the answer. */
  sorted(): NativeCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }
}
