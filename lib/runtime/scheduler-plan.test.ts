import { describe, expect, it } from "vitest";
import { createPlan } from "./scheduler-plan";

describe("createPlan", () => {
  it("decides starts and skips without running anything", () => {
    const plan = createPlan();
    expect(plan.add({ id: "a", turn: 0, mode: "sync", outputKey: "x" })).toEqual([
      { kind: "start", index: 0 },
    ]);
    expect(plan.add({ id: "b", turn: 0, mode: "async", references: ["x"] })).toEqual([]);
    expect(plan.add({ id: "c", turn: 0, mode: "async", dependsOn: ["b"] })).toEqual([]);
    expect(plan.finish(0, "failure")).toEqual([
      { kind: "skip", index: 1, outcome: 'Skipped: dependency "a" failed' },
      { kind: "skip", index: 2, outcome: 'Skipped: dependency "b" was skipped' },
    ]);
  });

  it("orders by a sync action only within its turn", () => {
    const plan = createPlan();
    plan.add({ id: "gate", turn: 0, mode: "sync" });
    expect(plan.add({ id: "same", turn: 0, mode: "async" })).toEqual([]);
    expect(plan.add({ id: "next", turn: 1, mode: "async" })).toEqual([{ kind: "start", index: 2 }]);
    expect(plan.finish(0, "success")).toEqual([{ kind: "start", index: 1 }]);
  });

  it("skips waiters of ids that never came when the turn closes, once", () => {
    const plan = createPlan();
    plan.add({ id: "a", turn: 0, mode: "async", dependsOn: ["ghost"] });
    const [skip] = plan.closeTurn();
    expect(skip).toMatchObject({ kind: "skip", index: 0 });
    expect(skip?.kind === "skip" && skip.problem).toContain('"ghost"');
    expect(plan.closeTurn()).toEqual([]);
  });

  it("refuses to finish an action that is not running", () => {
    const plan = createPlan();
    plan.add({ id: "a", turn: 0, mode: "async", dependsOn: ["a"] });
    expect(() => plan.finish(0, "success")).toThrow(/not running/);
  });
});
