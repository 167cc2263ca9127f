import { spawn } from "node:child_process";
import { z } from "zod";
import { formatBytes, utf8Prefix } from "./text";
import { defineTool, type Tool, ToolFailure } from "./tool";

export interface ShellOptions {
  /** Default 10 s; the whole process group is killed when it passes. */
  timeoutMs?: number;
  /** Per stream (stdout and stderr each), default 16 KiB; the rest is dropped and marked. */
  maxOutputBytes?: number;
}

export interface ShellResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

const input = z.strictObject({
  command: z.string().min(1).describe('A /bin/sh command line, e.g. "python3 src/app.py".'),
});

/**
 * Runs a command with the workspace as its working directory. Only registered when the
 * operator enables it (`builtinTools({ shell: true })`): the command runs with the server's
 * rights, so the workspace is a convenience here, not a sandbox.
 */
export function createShellTool(options: ShellOptions = {}): Tool<z.infer<typeof input>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxOutputBytes = options.maxOutputBytes ?? 16 * 1024;
  return defineTool({
    name: "shell",
    description:
      "Run a shell command (/bin/sh -c) in the workspace directory. " +
      `Returns exitCode, stdout and stderr; stopped after ${timeoutMs / 1000} s, ` +
      `each stream cut at ${formatBytes(maxOutputBytes)}.`,
    input,
    async run({ command }, { workspace, signal }) {
      const run = { timeoutMs, maxOutputBytes, signal };
      const { result, killedBy } = await runCommand(command, workspace.root, run);
      const outcome =
        result.exitCode === null ? `Killed by ${killedBy}` : `Exited with code ${result.exitCode}`;
      // A non-zero exit is still a successful run: the model reads stderr and decides.
      return { content: result, outcome };
    },
  });
}

export const shellTool = createShellTool();

interface RunOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal;
}

interface Completed {
  result: ShellResult;
  /** The signal that ended the command when it did not exit by itself. */
  killedBy: NodeJS.Signals | null;
}

function runCommand(command: string, cwd: string, options: RunOptions): Promise<Completed> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    // `detached` makes the shell a process-group leader, so a kill reaches its children too.
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // Next's types demand NODE_ENV in every env; the shell should not inherit the server's.
      env: shellEnvironment(cwd) as NodeJS.ProcessEnv,
    });
    const stdout = new CappedText(options.maxOutputBytes);
    const stderr = new CappedText(options.maxOutputBytes);
    child.stdout.on("data", (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.add(chunk));

    let stopped: ToolFailure | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const stop = (failure: ToolFailure) => {
      stopped ??= failure;
      killGroup();
      // A grandchild in its own session could keep the pipes open; stop waiting for them.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(
      () =>
        stop(
          new ToolFailure(`Command timed out after ${options.timeoutMs / 1000} s and was killed.`),
        ),
      options.timeoutMs,
    );
    const onAbort = () => stop(new ToolFailure("Command was cancelled and killed."));
    options.signal.addEventListener("abort", onAbort, { once: true });

    // Background jobs would hold the pipes open after the shell exits; they go with it.
    child.on("exit", killGroup);
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      reject(new ToolFailure(`Could not start /bin/sh: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, killedBy) => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (stopped !== undefined) {
        reject(withPartialOutput(stopped, stdout.text(), stderr.text()));
        return;
      }
      const result = { exitCode: code, stdout: stdout.text(), stderr: stderr.text() };
      resolve({ result, killedBy });
    });
  });
}

/** Only what a command needs to run: the server's secrets stay out of the model's shell. */
function shellEnvironment(cwd: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: cwd,
    LANG: process.env.LANG ?? "C.UTF-8",
    TERM: "dumb",
  };
}

function withPartialOutput(failure: ToolFailure, stdout: string, stderr: string): ToolFailure {
  const parts = [failure.message];
  if (stdout !== "") parts.push(`stdout so far:\n${stdout}`);
  if (stderr !== "") parts.push(`stderr so far:\n${stderr}`);
  return new ToolFailure(parts.join("\n"));
}

/** Keeps the first `maxBytes` of a stream and counts the rest, so a flood costs no memory. */
class CappedText {
  private readonly chunks: Buffer[] = [];
  private seen = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    // One byte past the cap is kept so `utf8Prefix` can tell whether the cut splits a character.
    const room = this.maxBytes + 1 - this.seen;
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.seen += chunk.length;
  }

  text(): string {
    const bytes = Buffer.concat(this.chunks);
    if (this.seen <= this.maxBytes) return bytes.toString("utf8");
    const shown = utf8Prefix(bytes, this.maxBytes);
    const hidden = formatBytes(this.seen - shown.length);
    return `${shown.toString("utf8")}\n[truncated: ${hidden} more not shown]`;
  }
}
