import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { TaskStepStream, toTaskSteps } from "./task-step-stream";
import type { TaskStepChunk } from "./task-step-types";
import { SAMPLE_START, sampleRecords } from "./testing";

const iso = (ms: number) => new Date(SAMPLE_START + ms).toISOString();

describe("toTaskSteps", () => {
  it("makes one step per turn with text, tool_call and tool_result parts; sub-agent steps carry parent_id", () => {
    const steps = toTaskSteps(sampleRecords());
    expect(steps.map((step) => [step.id, step.agent_name, step.parent_id])).toEqual([
      ["user-u1", "user", null],
      ["step-0", "assistant", null],
      ["step-1", "researcher", "step-0"],
      ["step-2", "assistant", null],
    ]);
    const [user, first, sub, last] = steps;
    expect(user).toEqual({
      id: "user-u1",
      parent_id: null,
      agent_name: "user",
      parts: [{ type: "text", text: "list the files ✨ «please»" }],
      created_at: iso(0),
      metadata: {},
    });
    expect(first?.parts).toEqual([
      {
        type: "text",
        text: 'Lïst the fîles first 🧐 — "quoted", <tag>, line\nbreak\u2028sep',
        metadata: { kind: "think" },
      },
      {
        type: "tool_call",
        tool_call: {
          id: "c1",
          tool_name: "list",
          args: { path: ".", deep: { nested: [1, null, "ü"] } },
        },
      },
      {
        type: "tool_call",
        tool_call: { id: "c2", tool_name: "researcher", args: { task: "look around" } },
      },
      {
        type: "tool_result",
        tool_result: { tool_call_id: "c1", result: ["notes/", "README.md"], is_error: false },
        metadata: { status: "success", outcome: "Listed 2 entries", tool: "list" },
      },
      {
        type: "tool_result",
        tool_result: { tool_call_id: "c2", result: "sub answer", is_error: true },
        metadata: { status: "failure", outcome: "Sub-agent stopped", tool: "researcher" },
      },
    ]);
    expect(first?.metadata).toEqual({
      turn: 0,
      usage: { input: 120, output: 40, durationMs: 49.6, ttftMs: 12.1 },
      errors: [
        {
          code: "model_wrote_results",
          message: "The model wrote a results block itself.",
          raw: "<results>[]</results>",
        },
        { code: "tool_failed", message: "researcher failed", callId: "c2" },
      ],
    });
    expect(first?.created_at).toBe(iso(13));
    expect(sub?.parts).toEqual([{ type: "text", text: "sub answer" }]);
    expect(last?.parts).toEqual([
      { type: "text", text: "Found `notes/` and README.md ✅ — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢" },
    ]);
    expect(last?.metadata).toEqual({ turn: 2, interrupted: "user" });
  });
});

describe("TaskStepStream", () => {
  it("streams deltas and atomic parts, then each step once, final when it is complete", () => {
    const stream = new TaskStepStream();
    const chunks: TaskStepChunk[] = [];
    const at: Record<string, number> = {};
    sampleRecords().forEach((record: TranscriptRecord, index) => {
      for (const chunk of stream.push(record)) {
        chunks.push(chunk);
        if (chunk.type === "step_final") at[chunk.step.id] = index;
      }
    });
    chunks.push(...stream.end());
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "step_final", // the user message
      "text_part_delta",
      "text_part_delta",
      "tool_call_part",
      "tool_call_part",
      "text_part_delta", // the sub-agent
      "tool_result_part",
      "tool_result_part",
      "step_final", // the sub-agent's step, once its call has a result
      "step_final", // turn 0, once turn 2 starts
      "text_part_delta",
      "step_final", // turn 2, at the interrupt
    ]);
    expect(at).toEqual({ "user-u1": 0, "step-1": 16, "step-0": 19, "step-2": 21 });
    // Deltas add up to the final text of their part.
    const finals = new Map(
      chunks.flatMap((chunk) => (chunk.type === "step_final" ? [[chunk.step.id, chunk.step]] : [])),
    );
    const texts = new Map<string, string>();
    for (const chunk of chunks) {
      if (chunk.type !== "text_part_delta") continue;
      const key = `${chunk.step_id}/${chunk.part_index}`;
      texts.set(key, (texts.get(key) ?? "") + chunk.delta);
    }
    for (const [key, text] of texts) {
      const [stepId, index] = key.split("/");
      expect(finals.get(stepId ?? "")?.parts[Number(index)]).toMatchObject({ type: "text", text });
    }
    expect(chunks[1]).toEqual({
      type: "text_part_delta",
      step_id: "step-0",
      part_index: 0,
      delta: "Lïst the fîles",
      metadata: { kind: "think" },
    });
  });

  it("finishes a turn at its end marker once it is measured", () => {
    const stream = new TaskStepStream({ agentName: "wirescope" });
    const respond: TranscriptRecord = {
      kind: "event",
      event: {
        type: "respond",
        id: "r",
        timestamp: 0,
        turn: 0,
        span: { start: 0, end: 2 },
        content: "hi",
      },
    };
    const end: TranscriptRecord = {
      kind: "event",
      event: { type: "end", id: "e", timestamp: 0, turn: 0, span: { start: 2, end: 7 } },
    };
    const metric: TranscriptRecord = {
      kind: "event",
      event: {
        type: "metric",
        id: "m",
        timestamp: 0,
        step: { input: 1, output: 1, durationMs: 1, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs: 1 },
      },
    };
    expect(stream.push(respond).map((chunk) => chunk.type)).toEqual(["text_part_delta"]);
    expect(stream.push(end)).toEqual([]);
    const [final] = stream.push(metric);
    expect(final).toMatchObject({
      type: "step_final",
      step: { id: "step-0", agent_name: "wirescope" },
    });
    expect(stream.end()).toEqual([]);
  });
});
