import { describe, expect, it } from "vitest";
import { type ForkForm, forkRequestOf, initialText, mockContent, modesOf } from "./fork-body";
import type { ForkTarget } from "./fork-target";

const user: ForkTarget = { kind: "user", at: 4, content: "list the files" };
const call: ForkTarget = {
  kind: "call",
  at: 9,
  callId: "c1",
  name: "list",
  result: { content: { files: ["a"] }, status: "success" },
};
const form = (patch: Partial<ForkForm>): ForkForm => ({
  mode: "rerun",
  text: "",
  status: "success",
  dialect: null,
  model: null,
  ...patch,
});

describe("fork requests", () => {
  it("edits a user message at its own seq", () => {
    expect(forkRequestOf(user, form({ mode: "edit", text: " read notes/todo.md " }))).toEqual({
      body: { at: 4, editUserMessage: "read notes/todo.md" },
    });
  });

  it("mocks a result with JSON, or with plain text when it is not JSON", () => {
    expect(
      forkRequestOf(call, form({ mode: "mock", text: '{"files":[]}', status: "failure" })),
    ).toEqual({
      body: { at: 9, editResult: { callId: "c1", content: { files: [] }, status: "failure" } },
    });
    expect(mockContent("no such file")).toBe("no such file");
  });

  it("re-runs with another dialect and model, with a message only when given", () => {
    const model = { provider: "demo", id: "scripted" };
    expect(forkRequestOf(user, form({ dialect: "action", model }))).toEqual({
      body: { at: 4, dialect: "action", model },
    });
    expect(forkRequestOf({ kind: "end", at: 12 }, form({ text: "go on" }))).toEqual({
      body: { at: 12 },
      message: "go on",
    });
  });

  it("offers mocking only when the call has a result", () => {
    expect(modesOf(call)).toEqual(["mock", "rerun"]);
    expect(modesOf({ ...call, result: undefined } as ForkTarget)).toEqual(["rerun"]);
    expect(modesOf(user)).toEqual(["edit", "rerun"]);
    expect(initialText(call, "mock")).toBe('{\n  "files": [\n    "a"\n  ]\n}');
    expect(initialText(user, "edit")).toBe("list the files");
  });
});
