import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinTools } from "./builtin";
import { createRegistry } from "./registry";
import { createTempWorkspace, type TempWorkspace } from "./testing";
import { defineTool, ToolFailure } from "./tool";

const echo = defineTool({
  name: "echo",
  description: "Echo a message.",
  input: z.strictObject({ message: z.string(), times: z.number().int().default(1) }),
  async run({ message, times }) {
    if (message === "fail") throw new ToolFailure("Asked to fail.\nSecond line.");
    if (message === "bug") throw new TypeError("x is undefined");
    return { content: message.repeat(times), outcome: `Echoed ${times} times` };
  },
});

const registry = createRegistry([echo, ...builtinTools({ shell: false })]);

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
});
afterEach(() => temp.cleanup());

describe("validate", () => {
  it("returns the parsed input, defaults applied", () => {
    expect(registry.validate("echo", { message: "hi" })).toEqual({
      ok: true,
      tool: echo,
      input: { message: "hi", times: 1 },
    });
  });

  it("names the available tools for an unknown one", () => {
    expect(registry.validate("cat", { file: "a" })).toEqual({
      ok: false,
      message:
        'Unknown tool "cat". Available tools: echo, list, read, write, edit, search, calculate.',
    });
  });

  it.each([
    [{}, 'Invalid arguments for "echo": "message" is missing (expected string).'],
    [{ message: 3 }, 'Invalid arguments for "echo": "message" should be string, not number 3.'],
    [
      { message: "hi", times: "2", cmd: "ls" },
      'Invalid arguments for "echo": "times" should be number, not string "2"; unexpected argument "cmd".',
    ],
    [["hi"], 'Invalid arguments for "echo": the arguments must be a JSON object, not an array.'],
    [null, 'Invalid arguments for "echo": the arguments must be a JSON object, not null.'],
    [
      { message: "hi", times: 1.5 },
      'Invalid arguments for "echo": "times" should be integer, not number 1.5.',
    ],
  ])("names the bad field in %j", (args, message) => {
    expect(registry.validate("echo", args)).toEqual({ ok: false, message });
  });

  it("rejects what the design's read call gets wrong", () => {
    expect(registry.validate("read", { path: "config.json" })).toEqual({
      ok: false,
      message:
        'Invalid arguments for "read": "file" is missing (expected string); unexpected argument "path".',
    });
  });
});

describe("run", () => {
  it("wraps a success", async () => {
    expect(await registry.run("echo", { message: "ab", times: 2 }, temp.context)).toEqual({
      tool: "echo",
      status: "success",
      content: "abab",
      outcome: "Echoed 2 times",
    });
  });

  it("turns validation errors, ToolFailure and bugs into failures, never throws", async () => {
    expect(await registry.run("nope", {}, temp.context)).toMatchObject({
      tool: "nope",
      status: "failure",
      outcome: "Invalid call",
    });
    expect(await registry.run("echo", { message: "fail" }, temp.context)).toEqual({
      tool: "echo",
      status: "failure",
      content: "Asked to fail.\nSecond line.",
      outcome: "Asked to fail.",
    });
    expect(await registry.run("echo", { message: "bug" }, temp.context)).toEqual({
      tool: "echo",
      status: "failure",
      content: "The echo tool failed unexpectedly: x is undefined",
      outcome: "Internal error",
    });
  });

  it("reports an aborted run as cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const context = { ...temp.context, signal: controller.signal };
    expect(await registry.run("list", {}, context)).toEqual({
      tool: "list",
      status: "failure",
      content: "The call was cancelled.",
      outcome: "Cancelled",
    });
  });
});

describe("describe", () => {
  it("exports each input schema as JSON Schema", () => {
    const read = registry.describe().find((tool) => tool.name === "read");
    expect(read?.inputSchema).toMatchObject({
      type: "object",
      required: ["file"],
      additionalProperties: false,
      properties: {
        file: { type: "string", minLength: 1 },
        start: { type: "integer", minimum: 1 },
      },
    });
    expect(read?.inputSchema).not.toHaveProperty("$schema");
  });

  it("leaves fields with defaults optional, as the model may omit them", () => {
    const list = registry.describe().find((tool) => tool.name === "list");
    expect(list?.inputSchema).not.toHaveProperty("required");
    expect(list?.inputSchema).toMatchObject({
      properties: { path: { type: "string", default: "." } },
    });
  });

  it("converts a schema once, however many registries (runs) describe it", () => {
    const again = createRegistry(builtinTools({ shell: false })).describe();
    const first = registry.describe();
    expect(again.length).toBeGreaterThan(3);
    for (const tool of again) {
      const other = first.find((candidate) => candidate.name === tool.name);
      expect(other?.inputSchema).toBe(tool.inputSchema);
    }
  });
});

describe("createRegistry", () => {
  it("refuses two tools with one name", () => {
    expect(() => createRegistry([echo, echo])).toThrow(
      'Two tools are named "echo"; give each tool a unique name.',
    );
  });
});
