/**
 * The capture proxy's cost (issue 14): added time to first byte and added delay per chunk
 * of a proxied stream versus a direct call to the same upstream, with 1 and 50 streams at
 * once. Upstream, proxy and client run in three processes; the upstream stamps each SSE
 * frame with its send time and the client notes when it arrives (both on the machine's
 * clock, so any offset between them is the same for direct and proxied calls and cancels
 * out). The proxy records into SQLite, as the server does. Alone: `npx tsx bench/proxy-bench.ts`.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { fixed, table } from "./table";

const SERVERS = fileURLToPath(new URL("./proxy-bench-servers.ts", import.meta.url));
/** ms since the epoch with sub-ms precision, comparable across processes on one machine. */
const clock = () => performance.timeOrigin + performance.now();

export interface ProxyBenchRow {
  streams: number;
  frames: number;
  directTtfbP50: number;
  proxiedTtfbP50: number;
  addedTtfbP50: number;
  addedTtfbP99: number;
  addedChunkP50: number;
  addedChunkP99: number;
  /** The proxy process's CPU time (all its threads, kernel included) per proxied call. */
  proxyCpuMsPerCall: number;
}

const FRAMES = 200;
/** Between frames: 100 frames a second per stream, a fast model. */
const PAUSE_MS = 10;

/** A bench server in its own process; resolves with the URL it prints. */
async function spawnServer(args: string[]) {
  // `WIRESCOPE_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"` profiles the proxy's process.
  const extra =
    args[0] === "proxy"
      ? (process.env.WIRESCOPE_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)
      : [];
  const child = spawn(process.execPath, [...extra, "--import", "tsx", SERVERS, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString("utf8");
      const line = out.split("\n")[0];
      if (out.includes("\n") && line !== undefined) resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`bench server ${args[0]} exited (${code})`)));
  });
  return { url, pid: child.pid, close: () => void child.kill("SIGINT") };
}

/** One streamed call: time to first byte and each frame's delay from send to arrival. */
async function oneStream(base: string, session: string) {
  const started = clock();
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-wirescope-session": session },
    body: JSON.stringify({
      model: "bench",
      stream: true,
      messages: [{ role: "user", content: `bench ${session}` }],
    }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let ttfb = -1;
  let buffer = "";
  const delays: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    const now = clock();
    if (done) break;
    if (ttfb < 0) ttfb = now - started;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const data = buffer.slice(6, end);
      buffer = buffer.slice(end + 2);
      if (data !== "[DONE]") delays.push(now - (JSON.parse(data) as { sent: number }).sent);
      end = buffer.indexOf("\n\n");
    }
  }
  return { ttfb, delays };
}

async function round(base: string, streams: number, tag: string) {
  const results = await Promise.all(
    Array.from({ length: streams }, (_, index) => oneStream(base, `${tag}-${index}`)),
  );
  return {
    ttfbs: results.map((result) => result.ttfb),
    delays: results.flatMap((result) => result.delays),
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A process's CPU time in ms (user + system, every thread), from /proc; NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** `record: false` runs the proxy with recording off, to see what the forwarding alone costs. */
export async function proxyBench(
  concurrency: readonly number[] = [1, 50],
  options: { record?: boolean } = {},
): Promise<ProxyBenchRow[]> {
  const upstream = await spawnServer(["upstream", String(PAUSE_MS), String(FRAMES)]);
  const proxy = await spawnServer([
    "proxy",
    upstream.url,
    ...(options.record === false ? ["--no-record"] : []),
  ]);
  const proxied = proxy.url;
  const rows: ProxyBenchRow[] = [];
  try {
    await round(upstream.url, 2, "warm-direct");
    await round(proxied, 2, "warm-proxy");
    for (const streams of concurrency) {
      // Interleaved rounds, so drift on a shared machine hits both sides alike.
      const rounds = streams === 1 ? 10 : 3;
      const direct = { ttfbs: [] as number[], delays: [] as number[] };
      const via = { ttfbs: [] as number[], delays: [] as number[] };
      let proxyCpu = 0;
      for (let index = 0; index < rounds; index++) {
        const a = await round(upstream.url, streams, `d${streams}-${index}`);
        const cpuBefore = cpuMs(proxy.pid);
        const b = await round(proxied, streams, `p${streams}-${index}`);
        // The recording's end settles a moment after the last byte.
        await new Promise((resolve) => setTimeout(resolve, 200));
        proxyCpu += cpuMs(proxy.pid) - cpuBefore;
        direct.ttfbs.push(...a.ttfbs);
        direct.delays.push(...a.delays);
        via.ttfbs.push(...b.ttfbs);
        via.delays.push(...b.delays);
      }
      rows.push({
        streams,
        frames: via.delays.length,
        directTtfbP50: percentile(direct.ttfbs, 50),
        proxiedTtfbP50: percentile(via.ttfbs, 50),
        addedTtfbP50: percentile(via.ttfbs, 50) - percentile(direct.ttfbs, 50),
        addedTtfbP99: percentile(via.ttfbs, 99) - percentile(direct.ttfbs, 99),
        addedChunkP50: percentile(via.delays, 50) - percentile(direct.delays, 50),
        addedChunkP99: percentile(via.delays, 99) - percentile(direct.delays, 99),
        proxyCpuMsPerCall: proxyCpu / (rounds * streams),
      });
    }
  } finally {
    proxy.close();
    upstream.close();
  }
  return rows;
}

export function printProxyBench(rows: readonly ProxyBenchRow[]): void {
  console.log(
    `\nCapture proxy vs direct call: ${FRAMES} SSE frames per stream, ${PAUSE_MS} ms apart, recorded to SQLite`,
  );
  console.log(
    table(
      [
        "streams",
        "frames",
        "TTFB direct p50",
        "TTFB proxied p50",
        "+TTFB p50",
        "+TTFB p99",
        "+chunk p50",
        "+chunk p99",
        "proxy CPU/call",
      ],
      rows.map((row) => [
        String(row.streams),
        String(row.frames),
        fixed(row.directTtfbP50, 2),
        fixed(row.proxiedTtfbP50, 2),
        fixed(row.addedTtfbP50, 2),
        fixed(row.addedTtfbP99, 2),
        fixed(row.addedChunkP50, 3),
        fixed(row.addedChunkP99, 3),
        fixed(row.proxyCpuMsPerCall, 2),
      ]),
    ),
  );
  console.log(
    "(ms; + = proxied minus direct at that percentile; goals: +chunk p50 < 0.5, +TTFB p50 < 5)",
  );
  const [one, five] = loadavg();
  console.log(
    `(load average ${fixed(one ?? 0)} / ${fixed(five ?? 0)} on ${availableParallelism()} cores: on a busy machine the wait for a core shows as added delay)`,
  );
}

if (process.argv[1]?.endsWith("proxy-bench.ts")) {
  proxyBench([1, 50], { record: !process.argv.includes("--no-record") })
    .then(printProxyBench)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
