import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

/** A background job that writes its pid to bg.pid, then sleeps far longer than any test. */
const BACKGROUND_JOB = "sh -c 'echo $$ > bg.pid; exec sleep 30' &";
/** Shell text that waits until the background job has written its pid. */
const AWAIT_BACKGROUND = "while [ ! -s bg.pid ]; do sleep 0.01; done";

/** Whether the process lives (a zombie, killed but not yet reaped, counts as gone). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat !== null) return !/^\d+ \(.*\) [ZX]/.test(stat);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the background job is gone: fails (after vi.waitFor's timeout) if it lives on. */
async function expectBackgroundJobKilled() {
  const pid = Number(await readFile(path.join(temp.workspace.root, "bg.pid"), "utf8"));
  expect(pid).toBeGreaterThan(1);
  await vi.waitFor(async () => expect(await alive(pid)).toBe(false), { timeout: 4000 });
}

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
    const tool = createShellTool({ timeoutMs: 500 });
    // The foreground sleep outlasts the test's own timeout: only the tool's kill ends it.
    const attempt = tool.run(
      { command: `${BACKGROUND_JOB} ${AWAIT_BACKGROUND}; echo started; sleep 30` },
      temp.context,
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(
      "Command timed out after 0.5 s and was killed.\nstdout so far:\nstarted\n",
    );
    await expectBackgroundJobKilled();
  });

  it("kills background jobs left behind when the shell exits", async () => {
    const output = await shellTool.run(
      { command: `${BACKGROUND_JOB} ${AWAIT_BACKGROUND}; echo done` },
      temp.context,
    );
    expect(output.content).toMatchObject({ exitCode: 0, stdout: "done\n" });
    await expectBackgroundJobKilled();
  });

  it("stops when the signal aborts, and never starts when it already has", async () => {
    const controller = new AbortController();
    const context = { ...temp.context, signal: controller.signal };
    const attempt = shellTool.run(
      { command: `${BACKGROUND_JOB} ${AWAIT_BACKGROUND}; sleep 30` },
      context,
    );
    // Abort once the command is surely running (its background job has written its pid: the
    // file exists, empty, a moment before that).
    await vi.waitFor(
      async () =>
        expect(await readFile(path.join(temp.workspace.root, "bg.pid"), "utf8")).toMatch(/\d+\n/),
      { timeout: 4000 },
    );
    controller.abort();
    await expect(attempt).rejects.toThrow("Command was cancelled and killed.");
    await expectBackgroundJobKilled();

    await expect(shellTool.run({ command: "touch ran.txt" }, context)).rejects.toThrow(/abort/i);
    expect(await exists("ran.txt")).toBe(false);
  });
});
