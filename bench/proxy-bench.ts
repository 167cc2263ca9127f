/**
 * The capture proxy's cost (issue 14): added time to first byte and added delay per chunk
 * of a proxied stream versus a direct call to the same upstream, with 1 and 50 streams at
 * once. Upstream, proxy and client run in three processes; the upstream stamps each SSE
 * frame with its send time and the client notes when it arrives (both on the machine's
 * clock, so any offset between them is the same for direct and proxied calls and cancels
 * out). The proxy records into SQLite, as the server does.
 *
 * `npx tsx bench/proxy-bench.ts [--no-record] [--next] [--floor] [--streams 1,50] [--frames 200]
 * [--rounds N] [checkout…]`: by default the bench server (`lib/proxy` on a bare `node:http`
 * server); `--next` measures the app users run instead (`npm start` of each checkout: Next in
 * front of `app/proxy/**`, on ports 3500–3510; it builds a checkout whose sources changed).
 * Several checkouts (e.g. a copy of main and this one) are measured in interleaved rounds;
 * `--floor` adds a bare `node:http` hop that only pipes bytes, what any Node proxy costs here.
 */
import { availableParallelism, loadavg } from "node:os";
import { resolve } from "node:path";
import { cpuMs, type ProxyTarget, startProxy, startUpstream } from "./proxy-bench-targets";
import { fixed, table } from "./table";

/** ms since the epoch with sub-ms precision, comparable across processes on one machine. */
const clock = () => performance.timeOrigin + performance.now();

export interface ProxyBenchRow {
  /** Which checkout and server (`label`). */
  target: string;
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

export interface ProxyBenchOptions {
  /** false: the bench server forwards only, to see what the forwarding alone costs. */
  record?: boolean;
  /** What is measured (default: this checkout's bench server); several are interleaved. */
  targets?: readonly ProxyTarget[];
  frames?: number;
  /** Rounds per concurrency (default 10 for one stream, 3 for more). */
  rounds?: number;
}

export async function proxyBench(
  concurrency: readonly number[] = [1, 50],
  options: ProxyBenchOptions = {},
): Promise<ProxyBenchRow[]> {
  const frames = options.frames ?? FRAMES;
  const record = options.record !== false;
  const targets = options.targets ?? [{ root: process.cwd(), via: "bench" as const }];
  const upstream = await startUpstream(PAUSE_MS, frames);
  const proxies = [];
  const rows: ProxyBenchRow[] = [];
  try {
    for (const [index, target] of targets.entries())
      proxies.push(await startProxy(target, upstream.url, { record, port: 3500 + index }));
    await round(upstream.url, 2, "warm-direct");
    for (const proxy of proxies) await round(proxy.url, 2, "warm-proxy");
    for (const streams of concurrency) {
      // Interleaved rounds, so drift on a shared machine hits every side alike.
      const rounds = options.rounds ?? (streams === 1 ? 10 : 3);
      const direct = { ttfbs: [] as number[], delays: [] as number[] };
      const via = proxies.map(() => ({ ttfbs: [] as number[], delays: [] as number[], cpu: 0 }));
      for (let index = 0; index < rounds; index++) {
        const a = await round(upstream.url, streams, `d${streams}-${index}`);
        direct.ttfbs.push(...a.ttfbs);
        direct.delays.push(...a.delays);
        // Each round starts with the next target, so none always goes first.
        for (let turn = 0; turn < proxies.length; turn++) {
          const which = (index + turn) % proxies.length;
          const proxy = proxies[which];
          const into = via[which];
          if (proxy === undefined || into === undefined) continue;
          const cpuBefore = cpuMs(proxy.pid);
          const b = await round(proxy.url, streams, `p${streams}-${index}-${which}`);
          // The recording's end settles a moment after the last byte.
          await new Promise((resolve) => setTimeout(resolve, 200));
          into.cpu += cpuMs(proxy.pid) - cpuBefore;
          into.ttfbs.push(...b.ttfbs);
          into.delays.push(...b.delays);
        }
      }
      for (const [which, measured] of via.entries()) {
        const target = targets[which];
        rows.push({
          target: target === undefined ? "" : label(target),
          streams,
          frames: measured.delays.length,
          directTtfbP50: percentile(direct.ttfbs, 50),
          proxiedTtfbP50: percentile(measured.ttfbs, 50),
          addedTtfbP50: percentile(measured.ttfbs, 50) - percentile(direct.ttfbs, 50),
          addedTtfbP99: percentile(measured.ttfbs, 99) - percentile(direct.ttfbs, 99),
          addedChunkP50: percentile(measured.delays, 50) - percentile(direct.delays, 50),
          addedChunkP99: percentile(measured.delays, 99) - percentile(direct.delays, 99),
          proxyCpuMsPerCall: measured.cpu / (rounds * streams),
        });
      }
    }
  } finally {
    for (const proxy of proxies) proxy.close();
    upstream.close();
  }
  return rows;
}

/** A target as the table names it: the checkout's directory name and what serves. */
function label(target: ProxyTarget): string {
  const name = target.root.split("/").filter(Boolean).at(-1) ?? target.root;
  if (target.via === "pipe") return "floor: bare node:http pipe";
  return `${name} (${target.via === "next" ? "npm start" : "bench server"})`;
}

export function printProxyBench(
  rows: readonly ProxyBenchRow[],
  options: { frames?: number; record?: boolean } = {},
): void {
  const recorded = options.record === false ? "not recorded" : "recorded to SQLite";
  console.log(
    `\nCapture proxy vs direct call: ${options.frames ?? FRAMES} SSE frames per stream, ${PAUSE_MS} ms apart, ${recorded}`,
  );
  console.log(
    table(
      [
        "proxy",
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
        row.target,
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

/** The value after `--name` on the command line, if any. */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
}

if (process.argv[1]?.endsWith("proxy-bench.ts")) {
  const args = process.argv.slice(2);
  const valued = new Set(["--streams", "--frames", "--rounds"]);
  const roots = args.filter(
    (arg, index) => !arg.startsWith("--") && !valued.has(args[index - 1] ?? ""),
  );
  const via = args.includes("--next") ? ("next" as const) : ("bench" as const);
  const frames = Number(option(args, "--frames") ?? FRAMES);
  const rounds = option(args, "--rounds");
  proxyBench((option(args, "--streams") ?? "1,50").split(",").map(Number), {
    record: !args.includes("--no-record"),
    targets: [
      ...(roots.length > 0 ? roots : [process.cwd()]).map((root) => ({ root: resolve(root), via })),
      ...(args.includes("--floor") ? [{ root: process.cwd(), via: "pipe" as const }] : []),
    ],
    frames,
    ...(rounds === undefined ? {} : { rounds: Number(rounds) }),
  })
    .then((rows) => printProxyBench(rows, { frames, record: !args.includes("--no-record") }))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
