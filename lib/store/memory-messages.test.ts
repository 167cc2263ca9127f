import { describe, expect, it } from "vitest";
import { memoryMessages } from "./memory-messages";

const bodies = (...contents: string[]) =>
  contents.map((content) => JSON.stringify({ role: "user", content }));

describe("memoryMessages", () => {
  it("frees a forgotten transcript's nodes and never gives their ids again", () => {
    const messages = memoryMessages();
    const kept = messages.intern("b", bodies("x", "y"));
    messages.intern("a", bodies("x", "y", "z"));
    expect(messages.size).toBe(5);
    messages.forget("a");
    expect(messages.size).toBe(2);
    // A transcript made again under the id starts a tree of its own, under new ids.
    const again = messages.intern("a", bodies("x"));
    expect(again).toBeGreaterThan(5);
    expect(messages.size).toBe(3);
    const [row] = messages.decode([
      { seq: 1, runId: "r", body: '{"kind":"request","messages":[]}', node: kept },
    ]);
    expect(row).toMatchObject({ messages: [{ content: "x" }, { content: "y" }] });
  });
});
