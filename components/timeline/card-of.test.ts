// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { cardIdOf } from "./card-of";
import { cleanup, loadLog, make } from "./testing";

afterEach(cleanup);

describe("cardIdOf", () => {
  it("finds the card showing an event: its own, its call's, its top-level call's", () => {
    loadLog([
      make.user("hi"),
      make.call("a1", "researcher", {}, { action: { type: "agent", mode: "sync" } }),
      { ...make.think("inside", "sub-t"), parent: "a1" },
      make.result("a1", "success", "done", "Agent finished"),
      make.result("ghost", "failure", "bad block", "Malformed call, not run", "protocol"),
    ]);
    const { log } = usePlayground.getState();
    expect(cardIdOf(log, "u1")).toBe("u1");
    expect(cardIdOf(log, "sub-t")).toBe("e-a1");
    expect(cardIdOf(log, "res-a1")).toBe("e-a1");
    expect(cardIdOf(log, "res-ghost")).toBe("res-ghost");
    expect(cardIdOf(log, "missing")).toBeUndefined();
  });
});
