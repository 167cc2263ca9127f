import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry, withoutServerPaths } from "./registry";
import { createTempWorkspace } from "./testing";
import { defineTool } from "./tool";

describe("what a tool's failure may show", () => {
  it("writes workspace paths relative and hides other absolute paths", () => {
    const root = "/srv/wirescope/data/workspaces/abc";
    expect(
      withoutServerPaths(`ENOSPC: no space left on device, open '${root}/notes/a.txt'`, root),
    ).toBe("ENOSPC: no space left on device, open 'notes/a.txt'");
    expect(withoutServerPaths(`EIO at ${root}`, root)).toBe("EIO at .");
    expect(withoutServerPaths("open '/srv/wirescope/data/wirescope.db'", root)).toBe(
      "open '…/wirescope.db'",
    );
  });

  it("keeps server paths out of an unexpected tool error", async () => {
    const temp = await createTempWorkspace();
    const broken = defineTool({
      name: "broken",
      description: "throws a raw file-system error",
      input: z.strictObject({}),
      async run(_input, { workspace }) {
        throw new Error(`EBADF: bad file descriptor, open '${workspace.root}/x.txt'`);
      },
    });
    const result = await createRegistry([broken]).run("broken", {}, temp.context);
    await temp.cleanup();
    expect(result.content).toBe(
      "The broken tool failed unexpectedly: EBADF: bad file descriptor, open 'x.txt'",
    );
  });

  it("does not keep a result nested past the depth limit", async () => {
    const temp = await createTempWorkspace();
    let deep: unknown = 1;
    for (let level = 0; level < 500; level++) deep = { deeper: deep };
    const nesting = defineTool({
      name: "nesting",
      description: "returns a deep result",
      input: z.strictObject({}),
      async run() {
        return { content: deep, outcome: "deep" };
      },
    });
    const result = await createRegistry([nesting]).run("nesting", {}, temp.context);
    await temp.cleanup();
    expect(result).toMatchObject({ status: "failure", outcome: "Result too deep" });
  });
});
