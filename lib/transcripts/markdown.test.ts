import { describe, expect, it } from "vitest";
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

  it("fences text so that backticks inside cannot close the fence", () => {
    expect(fenced("a ``` b", "text")).toBe("````text\na ``` b\n````");
    expect(fenced("plain", "json")).toBe("```json\nplain\n```");
  });
});
