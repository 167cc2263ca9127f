import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTools } from "./builtin";
import { createRegistry } from "./registry";
import { createTempWorkspace, type TempWorkspace } from "./testing";

// A FIFO blocks `open()` until its other end opens: before the fix, each call below held one of
// libuv's four file-system threads for good, and the fifth call (or any file read) never ended.
let temp: TempWorkspace;
let socket: Server | undefined;
beforeEach(async () => {
  temp = await createTempWorkspace();
  await temp.put({ "notes.md": "hello\n" });
  execFileSync("mkfifo", [path.join(temp.workspace.root, "pipe")]);
});
afterEach(async () => {
  socket?.close();
  socket = undefined;
  await temp.cleanup();
});

const registry = createRegistry(builtinTools({ shell: false }));
const run = (name: string, args: Record<string, unknown>) => registry.run(name, args, temp.context);

describe("special files in a workspace", () => {
  it.each([
    ["read", { file: "pipe" }],
    ["edit", { file: "pipe", old: "a", new: "b" }],
    ["write", { file: "pipe", content: "x" }],
    ["search", { query: "x", path: "pipe" }],
    ["list", { path: "pipe" }],
  ])("%s refuses a FIFO at once", async (name, args) => {
    const result = await run(name, args);
    expect(result.status).toBe("failure");
    expect(result.content).toMatch(/"pipe" is a named pipe \(FIFO\), not a regular file/);
  });

  it("stays responsive with many FIFO reads at once, and other files still read", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => run("read", { file: "pipe" })),
    );
    expect(results.every((result) => result.status === "failure")).toBe(true);
    expect(await run("read", { file: "notes.md" })).toMatchObject({
      status: "success",
      content: "hello\n",
    });
  });

  it("refuses a socket, and walks past special files in list and search", async () => {
    socket = createServer();
    socket.listen(path.join(temp.workspace.root, "sock"));
    await once(socket, "listening");
    expect((await run("read", { file: "sock" })).content).toMatch(/"sock" is a socket/);
    const listed = await run("list", { path: "." });
    expect(listed.status).toBe("success");
    expect(JSON.stringify(listed.content)).toContain('"path":"pipe","type":"other"');
    const searched = await run("search", { query: "hello" });
    expect(searched).toMatchObject({ status: "success" });
    expect(searched.content).toMatchObject({ matches: ["notes.md:1: hello"] });
  });
});
