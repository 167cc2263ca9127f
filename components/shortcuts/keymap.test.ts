import { describe, expect, it } from "vitest";
import { actionFor, type KeyPress, stepId } from "./keymap";

const press = (key: string, patch: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  repeat: false,
  focus: "other",
  ...patch,
});

describe("actionFor", () => {
  it("maps the documented keys, either case", () => {
    expect(actionFor(press("?"))).toEqual({ kind: "help" });
    expect(actionFor(press("/"))).toEqual({ kind: "focus-composer" });
    expect(actionFor(press("J"))).toEqual({ kind: "step-event", step: 1 });
    expect(actionFor(press("k"))).toEqual({ kind: "step-event", step: -1 });
    expect(actionFor(press("2"))).toEqual({ kind: "debug-tab", tab: "events" });
    expect(actionFor(press(" "))).toEqual({ kind: "play-pause" });
    expect(actionFor(press("x"))).toBeNull();
  });

  it("stays out of typing and dialogs", () => {
    for (const focus of ["text", "dialog"] as const) {
      expect(actionFor(press("/", { focus }))).toBeNull();
      expect(actionFor(press("j", { focus }))).toBeNull();
      expect(actionFor(press("?", { focus }))).toBeNull();
    }
  });

  it("leaves browser shortcuts alone", () => {
    expect(actionFor(press("n", { ctrlKey: true }))).toBeNull();
    expect(actionFor(press("d", { metaKey: true }))).toBeNull();
    expect(actionFor(press("1", { altKey: true }))).toBeNull();
  });

  it("lets Space press a focused button, other keys still work there", () => {
    expect(actionFor(press(" ", { focus: "control" }))).toBeNull();
    expect(actionFor(press("j", { focus: "control" }))).toEqual({ kind: "step-event", step: 1 });
  });

  it("repeats only the event steps while a key is held", () => {
    expect(actionFor(press("j", { repeat: true }))).not.toBeNull();
    expect(actionFor(press("d", { repeat: true }))).toBeNull();
  });
});

describe("stepId", () => {
  const ids = ["a", "b", "c"];
  it("moves and stops at the ends", () => {
    expect(stepId(ids, "a", 1)).toBe("b");
    expect(stepId(ids, "c", 1)).toBe("c");
    expect(stepId(ids, "a", -1)).toBe("a");
  });
  it("starts at the first going down and the last going up", () => {
    expect(stepId(ids, null, 1)).toBe("a");
    expect(stepId(ids, null, -1)).toBe("c");
    expect(stepId(ids, "gone", 1)).toBe("a");
    expect(stepId([], null, 1)).toBeNull();
  });
});
