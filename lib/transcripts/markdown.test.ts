import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import type { StoredRecord } from "../store/store";
import { exportMarkdown, fenced } from "./markdown";
import { sampleTranscript } from "./testing";

const transcript = sampleTranscript();

describe("exportMarkdown", () => {
  it("reads as a conversation: headings, reasoning quoted, calls with their results", () => {
    const markdown = exportMarkdown(transcript);
    expect(markdown).toMatchSnapshot();
    expect(markdown.indexOf("## User")).toBeLessThan(markdown.indexOf("## Assistant"));
    expect(markdown).toContain("> **Reasoning**\n>\n> Lïst the fîles first 🧐");
    // The call's result follows the call, not the later position of the result event.
    const call = markdown.indexOf("**Call** `list` · `c1`");
    const result = markdown.indexOf("**Result** · success · 3 ms — Listed 2 entries");
    expect(call).toBeGreaterThan(0);
    expect(result).toBeGreaterThan(call);
    expect(result).toBeLessThan(markdown.indexOf("**Call** `researcher`"));
    expect(markdown).toContain("> **Error** `model_wrote_results`");
    expect(markdown).toContain("Forked from `origin-0` after record 7.");
    // A sub-agent's own turns stay out; its answer is the call's result.
    expect(markdown.match(/sub answer/g)).toHaveLength(1);
    expect(markdown).not.toContain("### Request");
  });

  it("leaves out reasoning, tools and errors when switched off, and adds requests when on", () => {
    const markdown = exportMarkdown(transcript, {
      reasoning: false,
      tools: false,
      errors: false,
      requests: true,
    });
    expect(markdown).not.toContain("Reasoning");
    expect(markdown).not.toContain("**Call**");
    expect(markdown).not.toContain("**Result**");
    expect(markdown).not.toContain("**Error**");
    expect(markdown).toContain("### Request · turn 0 · demo/scripted");
    expect(markdown).toContain('"temperature": 0.5');
    expect(markdown).toContain("Found `notes/` and README.md ✅");
  });

  it("writes an action response's $variables as the page does: the value's text form", () => {
    const at = (event: ProtocolEvent, seq: number): StoredRecord => ({
      kind: "event",
      event,
      seq,
      runId: "run-1",
    });
    const call = (id: string, name: string, outputKey: string): ProtocolEvent => ({
      type: "call",
      id: `e-${id}`,
      timestamp: 1,
      turn: 0,
      span: { start: 0, end: 1 },
      call: { id, name, args: {} },
      action: { type: "tool", mode: "async", outputKey },
    });
    const result = (callId: string, tool: string, content: unknown): ProtocolEvent => ({
      type: "result",
      id: `r-${callId}`,
      timestamp: 2,
      callId,
      payload: { tool, status: "success", content, outcome: "Done", durationMs: 1 },
    });
    const records = [
      call("sum", "calculate", "total"),
      call("ls", "list", "files"),
      call("late", "read", "pending"),
      result("sum", "calculate", { expression: "40 + 50", value: 90 }),
      result("ls", "list", { path: ".", entries: [{ path: "a.md", type: "file" }] }),
      {
        type: "respond",
        id: "answer",
        timestamp: 3,
        turn: 0,
        span: { start: 1, end: 2 },
        content: "Total $total; files: $files; $pending; $nope.",
      } satisfies ProtocolEvent,
    ].map((event, index) => at(event, index + 1));
    const action = { meta: { ...transcript.meta, dialect: "action" as const }, records };
    expect(exportMarkdown(action)).toContain("Total 90; files: a.md; $pending; $nope.");
    const xml = { meta: transcript.meta, records };
    expect(exportMarkdown(xml)).toContain("Total $total; files: $files;");
  });

  it("fences text so that backticks inside cannot close the fence", () => {
    expect(fenced("a ``` b", "text")).toBe("````text\na ``` b\n````");
    expect(fenced("plain", "json")).toBe("```json\nplain\n```");
  });
});
