import { describe, expect, it } from "vitest";
import { outputValue } from "./output-value";

describe("outputValue", () => {
  it("gives each built-in tool's value: the number, the text, the names, the path", () => {
    expect(outputValue("calculate", { expression: "40 + 50", value: 90 })).toBe(90);
    expect(outputValue("read", "line 1\nline 2")).toBe("line 1\nline 2");
    const listed = {
      path: ".",
      entries: [
        { path: "notes", type: "directory" },
        { path: "notes/todo.md", type: "file", size: 12 },
      ],
    };
    expect(outputValue("list", listed)).toEqual(["notes/", "notes/todo.md"]);
    expect(outputValue("write", { file: "report.txt", bytes: 9, created: true })).toBe(
      "report.txt",
    );
    expect(outputValue("edit", { file: "a.md", line: 3, bytes: 40 })).toBe("a.md");
    const searched = { matches: ["a.md:1: x"], searchedFiles: 2, skippedFiles: 0 };
    expect(outputValue("search", searched)).toEqual(["a.md:1: x"]);
    expect(outputValue("shell", { exitCode: 0, stdout: "hi\n", stderr: "" })).toBe("hi\n");
  });

  it("keeps the content of other tools and of results in an unexpected shape", () => {
    expect(outputValue("weather", { temperature: 3 })).toEqual({ temperature: 3 });
    expect(outputValue("calculate", "odd")).toBe("odd");
    expect(outputValue("list", { path: "." })).toEqual({ path: "." });
    expect(outputValue("toString", "x")).toBe("x");
  });
});
