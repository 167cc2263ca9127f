import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempWorkspace, type TempWorkspace } from "./testing";
import { ToolFailure } from "./tool";
import { createWorkspace, isInside } from "./workspace";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
});
afterEach(() => temp.cleanup());

describe("resolve", () => {
  it("maps relative paths, existing or not, into the root", async () => {
    const { root } = temp.workspace;
    expect(await temp.workspace.resolve(".")).toBe(root);
    expect(await temp.workspace.resolve("notes/new/today.md")).toBe(
      path.join(root, "notes/new/today.md"),
    );
    expect(await temp.workspace.resolve("a/../b.txt")).toBe(path.join(root, "b.txt"));
    expect(await temp.workspace.resolve("..hidden")).toBe(path.join(root, "..hidden"));
  });

  it.each([
    ["..", /Path "\.\." leaves the workspace; use a path inside it\./],
    ["../../x", /Path "\.\.\/\.\.\/x" leaves the workspace/],
    ["notes/../../outside/secret.txt", /leaves the workspace/],
    ["/etc/passwd", /Path "\/etc\/passwd" is absolute; use a path relative to the workspace root/],
    ["a\u0000b", /contains a NUL byte/],
  ])("refuses %j", async (relative, message) => {
    const attempt = temp.workspace.resolve(relative);
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(message);
  });

  it("refuses symlinks that lead out, to files, directories and paths below them", async () => {
    await symlink(
      path.join(temp.outside, "secret.txt"),
      path.join(temp.workspace.root, "secret-link"),
    );
    await symlink(temp.outside, path.join(temp.workspace.root, "out-dir"));
    for (const relative of [
      "secret-link",
      "out-dir",
      "out-dir/secret.txt",
      "out-dir/new/file.txt",
    ]) {
      await expect(temp.workspace.resolve(relative)).rejects.toThrow(
        `Path "${relative}" leads out of the workspace through a symbolic link; use a path inside it.`,
      );
    }
  });

  it("refuses a dangling symlink, which a write would follow out", async () => {
    await symlink(
      path.join(temp.outside, "planted.txt"),
      path.join(temp.workspace.root, "dangling"),
    );
    await expect(temp.workspace.resolve("dangling")).rejects.toThrow(
      /symbolic link whose target does not exist/,
    );
  });

  it("words a name too long and a loop of links as failures for the model, not a crash", async () => {
    // A model's path (or links a shell command made) the file system cannot resolve: the
    // registry would call these "failed unexpectedly" with the raw errno text.
    const long = "x".repeat(300);
    await expect(temp.workspace.resolve(long)).rejects.toThrow(ToolFailure);
    await expect(temp.workspace.resolve(`${long}/a.txt`)).rejects.toThrow(
      new ToolFailure(`"${long}/a.txt" is too long a name for the file system.`),
    );
    await symlink("loop-b", path.join(temp.workspace.root, "loop-a"));
    await symlink("loop-a", path.join(temp.workspace.root, "loop-b"));
    for (const looped of ["loop-a", "loop-a/new.txt"]) {
      await expect(temp.workspace.resolve(looped)).rejects.toThrow(
        new ToolFailure(`"${looped}" cannot be followed (too many symbolic links).`),
      );
    }
  });

  it("follows symlinks that stay inside to their real path", async () => {
    await temp.put({ "docs/guide.md": "# Guide\n" });
    await symlink("docs", path.join(temp.workspace.root, "alias"));
    expect(await temp.workspace.resolve("alias/guide.md")).toBe(
      path.join(temp.workspace.root, "docs/guide.md"),
    );
  });

  it("works when the root itself is reached through a symlink", async () => {
    const linked = path.join(temp.outside, "to-workspace");
    await symlink(temp.workspace.root, linked);
    const workspace = await createWorkspace(linked);
    expect(workspace.root).toBe(temp.workspace.root);
    expect(await workspace.resolve("a.txt")).toBe(path.join(temp.workspace.root, "a.txt"));
  });
});

describe("relative", () => {
  it("gives slash-separated paths and '.' for the root", async () => {
    await mkdir(path.join(temp.workspace.root, "a/b"), { recursive: true });
    expect(temp.workspace.relative(path.join(temp.workspace.root, "a/b"))).toBe("a/b");
    expect(temp.workspace.relative(temp.workspace.root)).toBe(".");
  });
});

describe("isInside", () => {
  it("compares whole segments", () => {
    expect(isInside("/w", "/w")).toBe(true);
    expect(isInside("/w", "/w/..x")).toBe(true);
    expect(isInside("/w", "/w2/file")).toBe(false);
    expect(isInside("/w", "/")).toBe(false);
  });
});

describe("limits", () => {
  it("defaults to a 1 MiB write cap and takes overrides", async () => {
    expect(temp.workspace.limits).toEqual({ maxWriteBytes: 1024 * 1024, maxReadBytes: 64 * 1024 });
    const small = await createWorkspace(temp.workspace.root, { maxWriteBytes: 10 });
    expect(small.limits.maxWriteBytes).toBe(10);
  });
});
