/**
 * `WIRESCOPE_BENCH_URL=http://127.0.0.1:3000 WIRESCOPE_BENCH_PID=<pid> npx tsx
 * bench/request-cpu.ts [rounds]`: the server CPU of the requests a page makes, against a running
 * server (`npm start`: Next in front of the routes), as a browser asks for them (accepting
 * gzip, deflate and br). Per kind of request, 10 clients at once (4 for the page and a script):
 * the server process's CPU per request from `/proc/<pid>/stat` (Linux; every thread, 10 ms
 * ticks), and its wall time. Each round runs every kind once; the first round warms up and is
 * not shown. Figures are printed, never asserted.
 */
import { readFileSync } from "node:fs";
import { fixed, loadAverage, table } from "./table";

const url = process.env.WIRESCOPE_BENCH_URL?.replace(/\/$/, "");
const pid = process.env.WIRESCOPE_BENCH_PID;
const rounds = Number(process.argv[2] ?? 3);
const HEADERS = { "accept-encoding": "gzip, deflate, br" };

function cpuUs(): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100; // USER_HZ 100
}

/** `count` GETs of `path`, `clients` at a time: server CPU µs and wall ms per request. */
async function hammer(path: string, count: number, clients: number) {
  let sent = 0;
  const cpuBefore = cpuUs();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (sent++ < count) {
        const response = await fetch(`${url}${path}`, { headers: HEADERS });
        if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
  return { cpuUs: (cpuUs() - cpuBefore) / count, wallMs: (performance.now() - began) / count };
}

async function main(): Promise<void> {
  if (url === undefined || pid === undefined)
    throw new Error("Set WIRESCOPE_BENCH_URL and WIRESCOPE_BENCH_PID (the running server's).");
  const page = await (await fetch(`${url}/`)).text();
  const script = /\/_next\/static\/chunks\/[^"]+\.js/.exec(page)?.[0];
  const kinds: (readonly [string, string, number, number])[] = [
    ["GET /api/config", "/api/config", 1000, 10],
    ["GET /api/transcripts?limit=50", "/api/transcripts?limit=50", 1000, 10],
    ["GET /api/runs?active=1", "/api/runs?active=1", 1000, 10],
    ["GET / (the page)", "/", 300, 4],
    ...(script === undefined ? [] : ([["GET a script", script, 300, 4]] as const)),
  ];
  console.log(`\nServer CPU per request against ${url} (load average ${loadAverage()})`);
  const rows = new Map<string, string[]>();
  for (let round = 0; round <= rounds; round++)
    for (const [label, path, count, clients] of kinds) {
      const result = await hammer(path, count, clients);
      if (round === 0) continue;
      const row = rows.get(label) ?? [label];
      row.push(`${fixed(result.cpuUs / 1000, 2)} / ${fixed(result.wallMs, 2)}`);
      rows.set(label, row);
    }
  const header = [
    "request",
    ...Array.from({ length: rounds }, (_, i) => `round ${i + 1}: CPU / wall ms`),
  ];
  console.log(table(header, [...rows.values()]));
  console.log(`load average ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
