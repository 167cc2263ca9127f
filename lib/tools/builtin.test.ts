import { describe, expect, it } from "vitest";
import { builtinTools } from "./builtin";
import { createRegistry } from "./registry";

describe("builtinTools", () => {
  it("leaves shell out unless asked", () => {
    expect(builtinTools({ shell: false }).map((tool) => tool.name)).toEqual([
      "list",
      "read",
      "write",
      "edit",
      "search",
      "calculate",
    ]);
    const registry = createRegistry(builtinTools({ shell: false }));
    expect(registry.get("shell")).toBeUndefined();
    expect(registry.validate("shell", { command: "ls" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Unknown tool "shell"/),
    });
  });

  it("adds shell when enabled", () => {
    expect(builtinTools({ shell: true }).map((tool) => tool.name)).toContain("shell");
  });
});
