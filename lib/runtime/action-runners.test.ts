import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CallEvent } from "../protocol/events";
import { createMemoryStore } from "../store/memory-store";
import { builtinTools, createRegistry, ensureWorkspace, type Workspace } from "../tools";
import { type ActionRunnerOptions, createActionRunners } from "./action-runners";
import type { ActionRun, ActionRunner } from "./scheduler";
import { action, createHarness } from "./scheduler-testing";
import type { Workflow } from "./workflows";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true });
});

async function sampleWorkspace(): Promise<Workspace> {
  const dataDir = await mkdtemp(join(tmpdir(), "wirescope-actions-"));
  directories.push(dataDir);
  return ensureWorkspace(dataDir, "conversation-1");
}

const unused: ActionRunner = async () => {
  throw new Error("not used in this test");
};

async function setup(overrides: Partial<ActionRunnerOptions> = {}) {
  let clock = 1_000;
  const store = createMemoryStore({ now: () => clock });
  const runners = createActionRunners({
    registry: createRegistry(builtinTools({ shell: false })),
    workspace: await sampleWorkspace(),
    store,
    llm: unused,
    agent: unused,
    ...overrides,
  });
  const signal = new AbortController().signal;
  const run = (call: CallEvent): Promise<ActionRun> =>
    runners[call.action?.type ?? "tool"](call, call.call.args, signal);
  return { runners, store, run, advance: (ms: number) => (clock += ms) };
}

const relic = (args: Record<string, unknown>, name = "cache") =>
  action("r", { type: "relic", name, args });

describe("relic", () => {
  it("sets, gets and deletes a value in the action's namespace", async () => {
    const { run, store } = await setup();
    const set = await run(relic({ operation: "set", key: "k", value: { n: 1 } }));
    expect(set).toMatchObject({ status: "success", outcome: 'Stored "k" in relic "cache"' });
    expect(await store.relicGet("cache", "k")).toEqual({ n: 1 });
    expect(await run(relic({ operation: "get", key: "k" }))).toMatchObject({
      status: "success",
      content: { n: 1 },
    });
    expect(await run(relic({ operation: "get", key: "k" }, "other"))).toMatchObject({
      status: "success",
      content: null,
      outcome: 'No value for "k" in relic "other"',
    });
    expect(await run(relic({ operation: "delete", key: "k" }))).toMatchObject({
      content: { key: "k", deleted: true },
    });
    expect(await run(relic({ operation: "delete", key: "k" }))).toMatchObject({
      content: { key: "k", deleted: false },
    });
  });

  it("expires a value after its ttl", async () => {
    const { run, advance } = await setup();
    await run(relic({ operation: "set", key: "k", value: "v", ttl: 60 }));
    advance(59_999);
    expect((await run(relic({ operation: "get", key: "k" }))).content).toBe("v");
    advance(1);
    expect((await run(relic({ operation: "get", key: "k" }))).content).toBeNull();
  });

  it("fails with a readable message on bad parameters", async () => {
    const { run } = await setup();
    const noValue = await run(relic({ operation: "set", key: "k" }));
    expect(noValue).toMatchObject({ status: "failure", outcome: "Invalid relic call" });
    expect(String(noValue.content)).toContain("value");
    const seedExample = await run(relic({ event: "data_processed" }, "logger"));
    expect(seedExample.status).toBe("failure");
    const badTtl = await run(relic({ operation: "set", key: "k", value: 1, ttl: -1 }));
    expect(badTtl.status).toBe("failure");
  });

  it("round-trips through the scheduler with output_key", async () => {
    const { runners } = await setup();
    const h = createHarness({ runners });
    h.scheduler.submit(
      action("put", {
        mode: "sync",
        type: "relic",
        name: "notes",
        args: { operation: "set", key: "a", value: [1, 2] },
      }),
    );
    h.scheduler.submit(
      action("get", {
        type: "relic",
        name: "notes",
        outputKey: "saved",
        args: { operation: "get", key: "a" },
      }),
    );
    await h.scheduler.settle();
    expect(h.scheduler.variables().get("saved")).toEqual([1, 2]);
  });
});

describe("tool", () => {
  it("runs a registered tool with validation", async () => {
    const { run } = await setup();
    expect(await run(action("t", { name: "read", args: { file: "notes/todo.md" } }))).toMatchObject(
      { status: "success", tool: "read" },
    );
    const unknown = await run(action("u", { name: "nope" }));
    expect(String(unknown.content)).toContain('Unknown tool "nope"');
  });
});

describe("workflow", () => {
  it("runs inspect_workspace on a sample workspace: list, read README.md, search", async () => {
    const { run } = await setup();
    const result = await run(action("w", { type: "workflow", name: "inspect_workspace" }));
    expect(result).toMatchObject({
      status: "success",
      outcome: "Ran 3 steps of inspect_workspace",
    });
    const content = result.content as { steps: { tool: string; args: unknown; status: string }[] };
    expect(content.steps.map((step) => [step.tool, step.status])).toEqual([
      ["list", "success"],
      ["read", "success"],
      ["search", "success"],
    ]);
    expect(content.steps[2]?.args).toEqual({ query: "TODO", path: "." });
    expect(JSON.stringify(content.steps[0])).toContain("src/app.py");
    expect(JSON.stringify(content.steps[1])).toContain("# Your workspace");
    expect(JSON.stringify(content.steps[2])).toContain("notes/todo.md");
  });

  it("goes on past a failed optional step and takes parameters as $input", async () => {
    const workspace = await sampleWorkspace();
    await rm(join(workspace.root, "README.md"));
    const { run } = await setup({ workspace });
    const result = await run(
      action("w", { type: "workflow", name: "inspect_workspace", args: { query: "expense" } }),
    );
    expect(result.outcome).toBe("Ran 3 steps of inspect_workspace (1 optional failed)");
    const content = result.content as { steps: { status: string; args: unknown }[] };
    expect(content.steps[1]?.status).toBe("failure");
    expect(content.steps[2]?.args).toEqual({ query: "expense", path: "." });
  });

  it("passes step outputs on with $steps.N and stops at a failed step", async () => {
    const workspace = await sampleWorkspace();
    await writeFile(join(workspace.root, "name.txt"), "config.json");
    const workflows: Workflow[] = [
      {
        name: "follow",
        description: "Reads the file named in name.txt.",
        steps: [
          { tool: "read", args: { file: "$input.from" } },
          { tool: "read", args: { file: "$steps.0" } },
          { tool: "read", args: { file: "$input.missing" } },
        ],
      },
    ];
    const { run } = await setup({ workspace, workflows });
    const result = await run(
      action("w", { type: "workflow", name: "follow", args: { from: "name.txt" } }),
    );
    expect(result.status).toBe("failure");
    expect(result.outcome).toBe("Step 3 of 3 (read) failed: Unresolved $input.missing");
    const content = result.content as { steps: { content: unknown }[] };
    expect(String(content.steps[1]?.content)).toContain('"currency": "EUR"');
  });

  it("lists the available workflows when the name is unknown", async () => {
    const { run } = await setup();
    const result = await run(action("w", { type: "workflow", name: "nope" }));
    expect(result).toMatchObject({ status: "failure", outcome: "Unknown workflow" });
    expect(result.content).toBe('Unknown workflow "nope". Available workflows: inspect_workspace.');
  });
});

describe("llm and agent", () => {
  it("are the injected functions, given the substituted args and the signal", async () => {
    const seen: unknown[] = [];
    const llm: ActionRunner = async (call, args) => {
      seen.push(args);
      return { tool: call.call.name, status: "success", content: "summary", outcome: "Answered" };
    };
    const { runners } = await setup({ llm, agent: llm });
    const h = createHarness({ runners });
    h.scheduler.submit(
      action("a", { type: "agent", name: "analyst", outputKey: "notes", args: { q: "x" } }),
    );
    h.scheduler.submit(action("b", { type: "llm", name: "summarize", args: { text: "$notes" } }));
    const results = await h.scheduler.settle();
    expect(results.map((result) => result.payload.content)).toEqual(["summary", "summary"]);
    expect(seen).toEqual([{ q: "x" }, { text: "summary" }]);
  });
});
