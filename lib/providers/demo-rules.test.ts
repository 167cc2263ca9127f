import { describe, expect, it } from "vitest";
import { planTools } from "./demo-rules";

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
});
