import { describe, expect, it } from "vitest";
import { action, createHarness, flush } from "./scheduler-testing";

const statuses = (results: { callId: string; payload: { status: string } }[]) =>
  results.map((result) => [result.callId, result.payload.status]);

describe("modes", () => {
  it("starts async actions at submit, runs them together, settles in submission order", async () => {
    const h = createHarness();
    for (const id of ["a", "b", "c"]) h.scheduler.submit(action(id));
    expect(h.started).toEqual(["a", "b", "c"]);
    expect(h.maxConcurrency()).toBe(3);
    h.succeed("c");
    h.succeed("a");
    h.succeed("b");
    const results = await h.scheduler.settle();
    expect(results.map((result) => result.payload.content)).toEqual(["a done", "b done", "c done"]);
    expect(results.every((result) => result.turn === 0 && result.payload.durationMs === 0)).toBe(
      true,
    );
  });

  it("makes a sync action a sequence point for the actions after it in the turn", async () => {
    const h = createHarness();
    h.scheduler.submit(action("first", { mode: "async" }));
    h.scheduler.submit(action("gate", { mode: "sync" }));
    h.scheduler.submit(action("x"));
    h.scheduler.submit(action("y", { mode: "fire_and_forget" }));
    expect(h.started).toEqual(["first", "gate"]);
    h.fail("gate");
    await flush();
    // A sequence point orders; it does not make later actions depend on its success.
    expect(h.started).toEqual(["first", "gate", "x", "y"]);
    h.scheduler.submit(action("z"));
    expect(h.started.at(-1)).toBe("z");
  });

  it("excludes fire_and_forget from settle but emits its result and waits for it in drain", async () => {
    const h = createHarness();
    h.scheduler.submit(action("log", { mode: "fire_and_forget" }));
    h.scheduler.submit(action("work"));
    h.succeed("work");
    const results = await h.scheduler.settle();
    expect(results.map((result) => result.callId)).toEqual(["work"]);
    let drained = false;
    const draining = h.scheduler.drain().then(() => {
      drained = true;
    });
    await flush();
    expect(drained).toBe(false);
    h.succeed("log");
    await draining;
    expect(h.result("log")?.payload.status).toBe("success");
  });
});

describe("depends_on", () => {
  it("waits for its dependencies, including one submitted later in the turn", async () => {
    const h = createHarness();
    h.scheduler.submit(action("fetch1"));
    h.scheduler.submit(action("analyze", { dependsOn: ["fetch1", "fetch2"] }));
    h.scheduler.submit(action("fetch2"));
    expect(h.started).toEqual(["fetch1", "fetch2"]);
    h.succeed("fetch2");
    await flush();
    expect(h.started).not.toContain("analyze");
    h.succeed("fetch1");
    await flush();
    expect(h.started.at(-1)).toBe("analyze");
    h.succeed("analyze");
    const results = await h.scheduler.settle();
    expect(results.map((result) => result.callId)).toEqual(["fetch1", "analyze", "fetch2"]);
  });

  it("skips an action whose dependency never arrives, at the end of the turn", async () => {
    const h = createHarness();
    h.scheduler.submit(action("late", { dependsOn: ["nope"] }));
    expect(h.results()).toEqual([]);
    const results = await h.scheduler.settle();
    expect(statuses(results)).toEqual([["late", "skipped"]]);
    expect(h.errors()).toMatchObject([{ code: "dependency", callId: "late" }]);
    expect(h.errors()[0]?.message).toContain('"nope"');
    expect(h.started).toEqual([]);
  });

  it("skips a self-dependency at once", () => {
    const h = createHarness();
    h.scheduler.submit(action("me", { dependsOn: ["me"] }));
    expect(statuses(h.results())).toEqual([["me", "skipped"]]);
    expect(h.errors()).toMatchObject([{ code: "dependency", callId: "me" }]);
  });

  it("skips every action of a cycle as soon as the cycle closes", () => {
    const h = createHarness();
    h.scheduler.submit(action("a", { dependsOn: ["c"] }));
    h.scheduler.submit(action("b", { dependsOn: ["a"] }));
    h.scheduler.submit(action("c", { dependsOn: ["b"] }));
    expect(statuses(h.results())).toEqual([
      ["a", "skipped"],
      ["b", "skipped"],
      ["c", "skipped"],
    ]);
    expect(h.errors().map((error) => [error.code, error.callId])).toEqual([
      ["dependency", "a"],
      ["dependency", "b"],
      ["dependency", "c"],
    ]);
    expect(h.errors()[0]?.message).toContain('"a", "b", "c"');
    expect(h.started).toEqual([]);
  });

  it("breaks a deadlock between a sync action and a later action it depends on", () => {
    const h = createHarness();
    h.scheduler.submit(action("gate", { mode: "sync", dependsOn: ["later"] }));
    h.scheduler.submit(action("later"));
    expect(statuses(h.results())).toEqual([["gate", "skipped"]]);
    expect(h.started).toEqual(["later"]);
  });

  it("skips the dependents of a failed action, naming it", async () => {
    const h = createHarness();
    h.scheduler.submit(action("fetch"));
    h.scheduler.submit(action("use", { dependsOn: ["fetch"] }));
    h.scheduler.submit(action("more", { dependsOn: ["use"] }));
    h.fail("fetch");
    const results = await h.scheduler.settle();
    expect(statuses(results)).toEqual([
      ["fetch", "failure"],
      ["use", "skipped"],
      ["more", "skipped"],
    ]);
    expect(results[1]?.payload.outcome).toBe('Skipped: dependency "fetch" failed');
    expect(results[2]?.payload.outcome).toBe('Skipped: dependency "use" was skipped');
  });

  it('tolerates the failure of an action with on_error: "skip"', async () => {
    const h = createHarness();
    h.scheduler.submit(action("optional", { onError: "skip" }));
    h.scheduler.submit(action("use", { dependsOn: ["optional"] }));
    h.fail("optional");
    await flush();
    h.succeed("use");
    expect(statuses(await h.scheduler.settle())).toEqual([
      ["optional", "failure"],
      ["use", "success"],
    ]);
  });

  it("finds a dependency from an earlier turn", async () => {
    const h = createHarness();
    h.scheduler.submit(action("old"));
    h.succeed("old");
    await h.scheduler.settle();
    h.scheduler.submit(action("new", { turn: 1, dependsOn: ["old"] }));
    expect(h.started).toEqual(["old", "new"]);
  });
});

describe("retry and timeout", () => {
  it("retries failures only, and says how many attempts it took", async () => {
    const h = createHarness();
    h.scheduler.submit(action("flaky", { retry: 2 }));
    h.fail("flaky");
    await flush();
    h.fail("flaky");
    await flush();
    h.succeed("flaky");
    const [result] = await h.scheduler.settle();
    expect(h.started).toEqual(["flaky", "flaky", "flaky"]);
    expect(result?.payload).toMatchObject({ status: "success", outcome: "Done (attempt 3 of 3)" });
  });

  it('gives on_error: "retry" one more attempt, then reports the failure', async () => {
    const h = createHarness();
    h.scheduler.submit(action("flaky", { onError: "retry" }));
    h.fail("flaky");
    await flush();
    h.fail("flaky", "still broken");
    const [result] = await h.scheduler.settle();
    expect(h.started).toEqual(["flaky", "flaky"]);
    expect(result?.payload).toMatchObject({
      status: "failure",
      outcome: "still broken (attempt 2 of 2)",
    });
  });

  it("fails an attempt that runs past its timeout and aborts its signal", async () => {
    const h = createHarness();
    h.scheduler.submit(action("slow", { timeout: 0.01 }));
    const [result] = await h.scheduler.settle();
    expect(result?.payload).toMatchObject({ status: "failure", outcome: "Timed out after 0.01 s" });
    expect(h.attempt("slow").signal.aborted).toBe(true);
  });
});

describe("variables", () => {
  it("stores output_key values and substitutes them, exact and embedded", async () => {
    const h = createHarness();
    h.scheduler.submit(action("fetch", { outputKey: "data" }));
    h.succeed("fetch", { rows: [1, 2] });
    await h.scheduler.settle();
    const args = { whole: "$data", text: "got $data", list: ["$data"] };
    h.scheduler.submit(action("use", { turn: 1, args }));
    expect(h.attempt("use").args).toEqual({
      whole: { rows: [1, 2] },
      text: 'got {"rows":[1,2]}',
      list: [{ rows: [1, 2] }],
    });
    expect(h.scheduler.variables().get("data")).toEqual({ rows: [1, 2] });
  });

  it("stores a tool's output value: calculate's number, not its result object", async () => {
    const h = createHarness();
    h.scheduler.submit(action("sum", { outputKey: "total" }));
    h.attempt("sum").resolve({
      tool: "calculate",
      status: "success",
      content: { expression: "40 + 50", value: 90 },
      outcome: "40 + 50 = 90",
    });
    await h.scheduler.settle();
    expect(h.scheduler.variables().get("total")).toBe(90);
    h.scheduler.submit(action("use", { turn: 1, args: { text: "Total: $total" } }));
    expect(h.attempt("use").args).toEqual({ text: "Total: 90" });
  });

  it("leaves an unknown variable literal and reports it", () => {
    const h = createHarness();
    h.scheduler.submit(action("use", { args: { text: "see $missing" } }));
    expect(h.attempt("use").args).toEqual({ text: "see $missing" });
    expect(h.errors()).toMatchObject([{ code: "unknown_variable", callId: "use" }]);
  });

  it("waits for an action still producing a referenced variable", async () => {
    const h = createHarness();
    h.scheduler.submit(action("fetch", { outputKey: "page" }));
    h.scheduler.submit(action("summarize", { args: { text: "$page" } }));
    expect(h.started).toEqual(["fetch"]);
    h.succeed("fetch", "<html>");
    await flush();
    expect(h.attempt("summarize").args).toEqual({ text: "<html>" });
    expect(h.errors()).toEqual([]);
  });

  it("does not store the output of a failed action", async () => {
    const h = createHarness();
    h.scheduler.submit(action("fetch", { outputKey: "page" }));
    h.fail("fetch");
    await h.scheduler.settle();
    expect(h.scheduler.variables().has("page")).toBe(false);
  });
});

describe("cancellation", () => {
  it("fails running actions, skips waiting and later ones, each with one result", async () => {
    const h = createHarness();
    h.scheduler.submit(action("running"));
    h.scheduler.submit(action("waiting", { dependsOn: ["running"] }));
    h.controller.abort();
    h.scheduler.submit(action("later"));
    const results = await h.scheduler.settle();
    expect(statuses(results)).toEqual([
      ["running", "failure"],
      ["waiting", "skipped"],
      ["later", "skipped"],
    ]);
    expect(results[0]?.payload.outcome).toBe("Cancelled");
    expect(h.attempt("running").signal.aborted).toBe(true);
    // A runner that answers after the interrupt changes nothing.
    h.succeed("running");
    await flush();
    expect(h.results()).toHaveLength(3);
  });

  it("does not retry after an interrupt", async () => {
    const h = createHarness();
    h.scheduler.submit(action("flaky", { retry: 3 }));
    h.controller.abort();
    await h.scheduler.settle();
    expect(h.started).toEqual(["flaky"]);
  });
});

describe("runners", () => {
  it("turns a runner that throws into a failure", async () => {
    const h = createHarness({
      runners: {
        tool: () => {
          throw new Error("boom");
        },
        agent: () => Promise.reject(new Error("bang")),
        relic: async () => ({
          tool: "r",
          status: "success",
          content: "x".repeat(100),
          outcome: "Ok",
        }),
        workflow: async () => ({ tool: "w", status: "success", content: null, outcome: "Ok" }),
        llm: async () => ({ tool: "l", status: "success", content: null, outcome: "Ok" }),
      },
      maxResultBytes: 60,
    });
    h.scheduler.submit(action("t"));
    h.scheduler.submit(action("a", { type: "agent" }));
    h.scheduler.submit(action("r", { type: "relic" }));
    const results = await h.scheduler.settle();
    expect(results.map((result) => result.payload.outcome)).toEqual([
      "Internal error",
      "Internal error",
      "Ok (truncated to 60 characters)",
    ]);
    expect(results[0]?.payload.content).toContain("boom");
  });
});
