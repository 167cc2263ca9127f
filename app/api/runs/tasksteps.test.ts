import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import { toTaskSteps } from "@/lib/transcripts/task-step-stream";
import type { TaskStepChunk } from "@/lib/transcripts/task-step-types";
import { POST } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-tasksteps-"));
});

async function chunksOf(response: Response): Promise<TaskStepChunk[]> {
  const chunks: TaskStepChunk[] = [];
  const parser = createParser({ onEvent: (message) => chunks.push(JSON.parse(message.data)) });
  const text = await response.text();
  parser.feed(text);
  return chunks;
}

describe('POST /api/runs with "format": "tasksteps"', () => {
  it("streams TaskStep chunks while the transcript stores the usual records", async () => {
    const response = await POST(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body: JSON.stringify({
          message: "demo: parallel batch",
          dialect: "xml",
          format: "tasksteps",
          model: { provider: "demo", settings: { paceMs: 0 } },
        }),
      }),
    );
    expect(response.status).toBe(200);
    const transcriptId = response.headers.get("x-transcript-id") ?? "";
    const chunks = await chunksOf(response);
    const types = new Set(chunks.map((chunk) => chunk.type));
    expect([...types].sort()).toEqual([
      "step_final",
      "text_part_delta",
      "tool_call_part",
      "tool_result_part",
    ]);
    expect(chunks[0]).toMatchObject({ type: "step_final", step: { agent_name: "user" } });
    expect(chunks.at(-1)?.type).toBe("step_final");

    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    expect(stored?.records[0]).toMatchObject({ kind: "event", event: { type: "user" } });
    const finals = chunks.flatMap((chunk) => (chunk.type === "step_final" ? [chunk.step] : []));
    expect(new Set(finals.map((step) => step.id)).size).toBe(finals.length);
    const steps = toTaskSteps(stored?.records ?? []);
    expect([...finals].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...steps].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const calls = steps.flatMap((step) => step.parts.filter((part) => part.type === "tool_call"));
    const results = steps.flatMap((step) =>
      step.parts.filter((part) => part.type === "tool_result"),
    );
    expect(calls).toHaveLength(3);
    expect(results).toHaveLength(3);
  });

  it("refuses another format", async () => {
    const response = await POST(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body: JSON.stringify({ message: "hi", dialect: "xml", format: "xml" }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^format:/);
  });
});
