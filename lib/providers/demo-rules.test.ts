import { describe, expect, it } from "vitest";
import { planTools, wantsLongAnswer } from "./demo-rules";

const first = (text: string) => planTools(text)?.calls[0] ?? null;

describe("planTools", () => {
  it.each([
    ["What's in here?", { name: "list", args: { path: "." } }],
    ["show me src/app.py", { name: "read", args: { file: "src/app.py" } }],
    ["open config.json please", { name: "read", args: { file: "config.json" } }],
    ['find "average"', { name: "search", args: { query: "average" } }],
    ["how much is (12 + 30) / 2?", { name: "calculate", args: { expression: "(12 + 30) / 2" } }],
    [
      "write notes/a.md: line one",
      { name: "write", args: { file: "notes/a.md", content: "line one" } },
    ],
  ])("%s", (text, expected) => {
    expect(first(text)).toEqual(expected);
  });

  it("picks no tool for small talk", () => {
    expect(planTools("hello")).toBeNull();
    expect(planTools("read something nice to me")).toBeNull();
  });

  it("plans two steps when asked for two", () => {
    expect(planTools("list the files and read one")).toMatchObject({
      calls: [{ name: "list", args: { path: "." } }],
      nextSteps: ["read_listed"],
    });
    expect(planTools("search for average then edit it")).toMatchObject({
      calls: [{ name: "search", args: { query: "average" } }],
      nextSteps: ["edit_found"],
    });
    expect(planTools("find TODO and fix it")?.nextSteps).toEqual(["edit_found"]);
    // A named file is one step: read it.
    expect(planTools("list files and read notes/todo.md")?.calls[0]?.name).toBe("read");
    expect(planTools("list the files")?.nextSteps).toBeUndefined();
  });

  it("recognises a request for a long answer", () => {
    expect(wantsLongAnswer("explain the protocol")).toBe(true);
    expect(wantsLongAnswer("give me a long answer")).toBe(true);
    expect(wantsLongAnswer("list the files")).toBe(false);
  });
});
