/**
 * The run routes on a bare node:http server, in a process of its own so the bench can measure
 * the server's CPU apart from its clients. Prints `port <n>` when listening. Not Next itself:
 * the figures are the run machinery's (registry, store, SSE), not the framework's.
 * `GET /bench/published` answers every record's publish time per run (ms, timeOrigin-based);
 * `GET /bench/cpu` the process's CPU time in µs. `GET /bench/starts` answers, per `POST /api/runs`,
 * when the request arrived (its headers were parsed), when the route answered and when the
 * first byte of the body (the `run` record) was handed to the socket (ms, timeOrigin-based).
 */
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { Session } from "node:inspector";
import { GET as events } from "../app/api/runs/[runId]/events/route";
import { POST } from "../app/api/runs/route";
import { readConfig } from "../lib/server/config";
import { LiveRun } from "../lib/server/live-run";
import { getStore } from "../lib/server/store-instance";

const published = new Map<string, number[]>();
interface Start {
  runId: string;
  /** When its connection was accepted (a kept-alive one: when that was). */
  accepted: number;
  arrived: number;
  answered: number;
  written: number;
}
const starts: Start[] = [];
const accepted = new WeakMap<object, number>();
// Counts the grouped commits: how many store calls, batches (run slices) and records.
// `storeUs`: the CPU time spent inside those calls (they are synchronous on SQLite).
const commits = { calls: 0, batches: 0, records: 0, storeUs: 0 };
/** Body chunks written to sockets (each one a write down to the socket). */
let writes = 0;
const store = getStore(readConfig().dataDir);
/** Counts the commits; called once the store is ready, when its methods are its own (no wait). */
function countCommits(): void {
  const append = store.appendRunRecords.bind(store);
  store.appendRunRecords = (batches) => {
    commits.calls++;
    commits.batches += batches.length;
    for (const batch of batches) commits.records += batch.records.length;
    const began = process.cpuUsage();
    const result = append(batches); // synchronous on SQLite, so this is the commit's CPU
    const spent = process.cpuUsage(began);
    commits.storeUs += spent.user + spent.system;
    return result;
  };
}
const clock = () => performance.timeOrigin + performance.now();
const publish = LiveRun.prototype.publish;
LiveRun.prototype.publish = function timed(this: LiveRun, record, json) {
  let times = published.get(this.runId);
  if (times === undefined) {
    times = [];
    published.set(this.runId, times);
  }
  times.push(clock());
  publish.call(this, record, json);
};

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/bench/published") {
    response.end(JSON.stringify(Object.fromEntries(published)));
    return;
  }
  if (url.pathname === "/bench/starts") {
    response.end(JSON.stringify(starts));
    return;
  }
  if (url.pathname === "/bench/cpu") {
    const usage = process.cpuUsage();
    response.end(
      JSON.stringify({ cpuUs: usage.user + usage.system, systemUs: usage.system, commits, writes }),
    );
    return;
  }
  const arrived = clock();
  const match = /^\/api\/runs\/([^/]+)\/events$/.exec(url.pathname);
  let answer: Response;
  if (request.method === "POST" && url.pathname === "/api/runs") {
    const body = await readBody(request);
    answer = await POST(new Request(url, { method: "POST", body }));
  } else if (request.method === "GET" && match?.[1] !== undefined) {
    answer = await events(new Request(url), {
      params: Promise.resolve({ runId: decodeURIComponent(match[1]) }),
    });
  } else {
    response.writeHead(404).end();
    return;
  }
  let start: Start | null =
    match === null
      ? {
          runId: answer.headers.get("x-run-id") ?? "",
          accepted: accepted.get(request.socket) ?? 0,
          arrived,
          answered: clock(),
          written: 0,
        }
      : null;
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body === null) {
    response.end();
    return;
  }
  const reader = answer.body.getReader();
  response.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    writes++;
    const more = response.write(value);
    if (start !== null) {
      start.written = clock();
      starts.push(start);
      start = null;
    }
    if (!more) await once(response, "drain");
  }
  response.end();
});

server.on("connection", (socket) => accepted.set(socket, clock()));

void store.listUnfinishedRuns().then(() => {
  countCommits();
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`port ${typeof address === "object" && address ? address.port : 0}\n`);
  });
});

// `WIRESCOPE_BENCH_HEAP_SAMPLES=<file>`: where the server allocates, garbage included (V8's
// sampling heap profiler keeping collected objects; `--heap-prof` keeps only what is still
// alive at exit), written as a `.heapprofile` on SIGINT (open it in Chrome's DevTools).
const heapSamples = process.env.WIRESCOPE_BENCH_HEAP_SAMPLES;
const inspector = heapSamples === undefined ? null : new Session();
inspector?.connect();
inspector?.post("HeapProfiler.startSampling", {
  samplingInterval: 16_384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});

// Exit cleanly on SIGINT, so `--cpu-prof` (when profiling) writes its file.
process.on("SIGINT", () => {
  if (inspector === null || heapSamples === undefined) process.exit(0);
  inspector.post("HeapProfiler.stopSampling", (error, result) => {
    if (error === null) writeFileSync(heapSamples, JSON.stringify(result.profile));
    process.exit(0);
  });
});
