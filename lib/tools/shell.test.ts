import { access } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellTool, shellTool } from "./shell";
import { createTempWorkspace, type TempWorkspace } from "./testing";
import { ToolFailure } from "./tool";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
});
afterEach(() => temp.cleanup());

const exists = (file: string) =>
  access(path.join(temp.workspace.root, file)).then(
    () => true,
    () => false,
  );

describe("shell", () => {
  it("runs in the workspace and returns exit code, stdout and stderr", async () => {
    await temp.put({ "hello.txt": "hi" });
    const output = await shellTool.run(
      { command: "pwd; cat hello.txt; echo oops >&2" },
      temp.context,
    );
    expect(output).toEqual({
      content: { exitCode: 0, stdout: `${temp.workspace.root}\nhi`, stderr: "oops\n" },
      outcome: "Exited with code 0",
    });
  });

  it("reports a non-zero exit as a result, not a failure", async () => {
    const output = await shellTool.run({ command: "echo nope >&2; exit 3" }, temp.context);
    expect(output).toEqual({
      content: { exitCode: 3, stdout: "", stderr: "nope\n" },
      outcome: "Exited with code 3",
    });
  });

  it("reports a command killed by a signal", async () => {
    const output = await shellTool.run({ command: "kill -TERM $$" }, temp.context);
    expect(output).toEqual({
      content: { exitCode: null, stdout: "", stderr: "" },
      outcome: "Killed by SIGTERM",
    });
  });

  it("does not pass the server's environment to the command", async () => {
    process.env.WIRESCOPE_TEST_SECRET = "s3cret";
    try {
      const output = await shellTool.run(
        { command: 'echo "[$WIRESCOPE_TEST_SECRET]"' },
        temp.context,
      );
      expect(output.content).toMatchObject({ stdout: "[]\n" });
    } finally {
      delete process.env.WIRESCOPE_TEST_SECRET;
    }
  });

  it("caps each stream and marks the cut", async () => {
    const tool = createShellTool({ maxOutputBytes: 10 });
    const output = await tool.run(
      { command: "printf '0123456789abcdef'; printf 'short' >&2" },
      temp.context,
    );
    expect(output.content).toEqual({
      exitCode: 0,
      stdout: "0123456789\n[truncated: 6 B more not shown]",
      stderr: "short",
    });
  });

  it("keeps only the cap of a flood without waiting for it to end in memory", async () => {
    const tool = createShellTool({ maxOutputBytes: 16 * 1024 });
    const output = await tool.run(
      { command: "head -c 5000000 /dev/zero | tr '\\0' x" },
      temp.context,
    );
    const { stdout } = output.content as { stdout: string };
    expect(stdout).toBe(`${"x".repeat(16 * 1024)}\n[truncated: 4.8 MiB more not shown]`);
  });

  it("kills the whole process group at the timeout", async () => {
    const tool = createShellTool({ timeoutMs: 200 });
    const started = Date.now();
    const attempt = tool.run(
      { command: "echo started; (sleep 0.6; touch late.txt) & sleep 5" },
      temp.context,
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(
      "Command timed out after 0.2 s and was killed.\nstdout so far:\nstarted\n",
    );
    expect(Date.now() - started).toBeLessThan(2000);
    await sleep(900);
    expect(await exists("late.txt")).toBe(false);
  });

  it("kills background jobs left behind when the shell exits", async () => {
    const output = await shellTool.run(
      { command: "(sleep 0.3; touch late.txt) & echo done" },
      temp.context,
    );
    expect(output.content).toMatchObject({ exitCode: 0, stdout: "done\n" });
    await sleep(600);
    expect(await exists("late.txt")).toBe(false);
  });

  it("stops when the signal aborts, and never starts when it already has", async () => {
    const controller = new AbortController();
    const context = { ...temp.context, signal: controller.signal };
    const started = Date.now();
    const attempt = shellTool.run({ command: "sleep 5" }, context);
    setTimeout(() => controller.abort(), 100);
    await expect(attempt).rejects.toThrow("Command was cancelled and killed.");
    expect(Date.now() - started).toBeLessThan(2000);

    await expect(shellTool.run({ command: "touch ran.txt" }, context)).rejects.toThrow(/abort/i);
    expect(await exists("ran.txt")).toBe(false);
  });
});
