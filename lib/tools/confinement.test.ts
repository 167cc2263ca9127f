/**
 * One confinement suite for every file tool: each way out of the workspace is refused with a
 * failure result (never an exception), and nothing outside is read, listed or changed.
 */
import { readdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTools } from "./builtin";
import { createRegistry } from "./registry";
import { createTempWorkspace, type TempWorkspace } from "./testing";

const registry = createRegistry(builtinTools({ shell: false }));

/** Arguments for each file tool that aim at `target`. */
const CALLS: Record<string, (target: string) => Record<string, unknown>> = {
  read: (target) => ({ file: target }),
  write: (target) => ({ file: target, content: "planted" }),
  edit: (target) => ({ file: target, old: "top secret", new: "planted" }),
  list: (target) => ({ path: target }),
  search: (target) => ({ query: "secret", path: target }),
};

const ESCAPES: [label: string, target: string, message: RegExp][] = [
  ["parent", "..", /leaves the workspace/],
  ["grandparent", "../../x", /leaves the workspace/],
  ["sibling through ..", "../outside/secret.txt", /leaves the workspace/],
  ["absolute", "/etc/passwd", /is absolute/],
  ["NUL byte", "a\u0000b", /NUL byte/],
  ["symlink to a file outside", "secret-link", /through a symbolic link/],
  ["symlinked directory leading out", "out-dir", /through a symbolic link/],
  ["file below a symlinked directory", "out-dir/secret.txt", /through a symbolic link/],
  ["new file below a symlinked directory", "out-dir/new.txt", /through a symbolic link/],
  ["dangling symlink to outside", "dangling", /target does not exist/],
];

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
  const { root } = temp.workspace;
  await symlink(path.join(temp.outside, "secret.txt"), path.join(root, "secret-link"));
  await symlink(temp.outside, path.join(root, "out-dir"));
  await symlink(path.join(temp.outside, "planted.txt"), path.join(root, "dangling"));
});
afterEach(() => temp.cleanup());

describe.each(Object.keys(CALLS))("%s", (tool) => {
  it.each(ESCAPES)("refuses %s (%j)", async (_label, target, message) => {
    const args = CALLS[tool]?.(target);
    const run = await registry.run(tool, args, temp.context);
    expect(run.status).toBe("failure");
    expect(run.content).toMatch(message);
    expect(await readdir(temp.outside)).toEqual(["secret.txt"]);
    expect(await readFile(path.join(temp.outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });
});

describe("recursive walks", () => {
  it("list shows symlinks as entries and does not descend into them", async () => {
    const run = await registry.run("list", { recursive: true }, temp.context);
    expect(run.status).toBe("success");
    expect(run.content).toEqual({
      path: ".",
      entries: [
        { path: "dangling", type: "symlink" },
        { path: "out-dir", type: "symlink" },
        { path: "secret-link", type: "symlink" },
      ],
    });
  });

  it("search does not follow symlinks out of the workspace", async () => {
    const run = await registry.run("search", { query: "secret" }, temp.context);
    expect(run.content).toMatchObject({ matches: [], searchedFiles: 0 });
  });
});
