/**
 * The proxy bench's processes: the fake upstream, and the proxy it measures, either the bench
 * server (`lib/proxy` on a bare `node:http` server, `proxy-bench-servers.ts`) or the app users
 * run (`npm start`: `scripts/start.mjs`, Next in front of `app/proxy/**`), from any checkout.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What is measured: `bench` is lib/proxy without Next; `next` is the production server;
 * `pipe` is the floor, a bare `node:http` hop that records nothing.
 */
export type ProxyVia = "bench" | "next" | "pipe";

export interface ProxyTarget {
  /** The checkout whose code serves (its root directory). */
  root: string;
  via: ProxyVia;
}

export interface BenchProcess {
  /** The base URL calls go to (`…/v1`). */
  url: string;
  pid: number | undefined;
  close(): void;
}

/** Node flags for the proxy's process, e.g. `--cpu-prof --cpu-prof-dir=DIR`. */
const nodeArgs = () => (process.env.WIRESCOPE_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);

/** A process that prints what `found` picks out of its stdout once it is ready. */
async function spawnUntil(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> },
  found: (out: string) => string | undefined,
): Promise<BenchProcess> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = "";
    const onData = (data: Buffer) => {
      out += data.toString("utf8");
      const url = found(out);
      if (url === undefined) return;
      child.stdout.off("data", onData);
      // Keep draining what it prints later, so it never blocks on a full pipe.
      child.stdout.resume();
      resolveUrl(url);
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`bench process ${args.at(-1)} exited (${code})`)),
    );
  });
  // SIGINT: a normal exit, so `--cpu-prof` writes its profile.
  return { url, pid: child.pid, close: () => void child.kill("SIGINT") };
}

const firstLine = (out: string) =>
  out.includes("\n") ? (out.split("\n")[0] ?? "").trim() : undefined;

/** The fake upstream (this checkout's): `pauseMs` between `frames` SSE frames. */
export function startUpstream(pauseMs: number, frames: number): Promise<BenchProcess> {
  const servers = fileURLToPath(new URL("./proxy-bench-servers.ts", import.meta.url));
  return spawnUntil(
    ["--import", "tsx", servers, "upstream", String(pauseMs), String(frames)],
    {},
    firstLine,
  );
}

/**
 * The proxy of `target` in front of `upstreamURL`; `port` for the Next server (the bench
 * server takes any free one). `record: false` exists only for the bench server.
 */
export async function startProxy(
  target: ProxyTarget,
  upstreamURL: string,
  options: { record: boolean; port: number },
): Promise<BenchProcess> {
  if (target.via === "pipe") {
    const servers = join(target.root, "bench", "proxy-bench-servers.ts");
    return spawnUntil(
      [...nodeArgs(), "--import", "tsx", servers, "pipe", upstreamURL],
      {},
      firstLine,
    );
  }
  if (target.via === "bench") {
    const servers = join(target.root, "bench", "proxy-bench-servers.ts");
    const args = [...nodeArgs(), "--import", "tsx", servers, "proxy", upstreamURL];
    if (!options.record) args.push("--no-record");
    return spawnUntil(args, { cwd: target.root }, firstLine);
  }
  // `npm start` as users run it (it builds first when the checkout's sources changed).
  const server = await spawnUntil(
    [...nodeArgs(), join(target.root, "scripts", "start.mjs")],
    {
      cwd: target.root,
      env: {
        PORT: String(options.port),
        WIRESCOPE_HOST: "127.0.0.1",
        WIRESCOPE_DATA_DIR: mkdtempSync(join(tmpdir(), "wirescope-proxy-bench-")),
        OPENAI_BASE_URL: upstreamURL,
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
    // Ready once the banner has listed the providers (the server answered its own request).
    (out) => (/providers {2}/.test(out) ? /Wirescope {2}(http:\S+)/.exec(out)?.[1] : undefined),
  );
  return { ...server, url: `${server.url}/proxy/openai/v1` };
}

/** A process's CPU time in ms (user + system, every thread), from /proc; NaN elsewhere. */
export function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
