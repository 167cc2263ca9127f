/**
 * The live-run benches' client side: the bench server's process (`live-server.ts`), a run's
 * start request and reading its SSE frames (`live-runs.ts` and `run-starts.ts` against their
 * own server, `live-runs-external.ts` against a running one).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { DEMO_MESSAGES } from "./demo-messages";

const PACE_MS = 15;

export interface Server {
  url: string;
  child: ChildProcess;
}

export async function startServer(dataDir: string): Promise<Server> {
  const script = join(import.meta.dirname, "live-server.ts");
  // `WIRESCOPE_BENCH_NODE_ARGS="--cpu-prof"` profiles the server (the file is written on exit).
  const nodeArgs = (process.env.WIRESCOPE_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    env: { ...process.env, WIRESCOPE_DATA_DIR: dataDir, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    child.stdout?.on("data", (data: Buffer) => {
      buffer += data.toString();
      const match = /port (\d+)/.exec(buffer);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`the bench server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

export const clock = () => performance.timeOrigin + performance.now();

/** Reads an SSE body, calling `onFrame(index, data, at)` for each record (the `run` record is 0). */
export async function readFrames(
  response: Response,
  onFrame: (index: number, data: string, at: number) => void,
): Promise<number> {
  if (response.body === null) throw new Error(`no body (${response.status})`);
  const decoder = new TextDecoder();
  let buffer = "";
  let index = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value: bytes } = await reader.read();
    if (done) break;
    const at = clock();
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      onFrame(index++, buffer.slice(6, end), at);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
  return index;
}

/** A run's start request: the bench's messages in turn, or `message` for every run. */
export const startBody = (index: number, message?: string, paceMs = PACE_MS) =>
  JSON.stringify({
    message: message ?? DEMO_MESSAGES[index % DEMO_MESSAGES.length],
    dialect: "xml",
    model: { provider: "demo", settings: { paceMs } },
  });

/** The value at fraction `p` of `values` (NaN for none). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}
