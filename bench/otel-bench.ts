import os from "node:os";
import { LiveExporter } from "../lib/otel/live-export";
import { otlpJson } from "../lib/otel/otlp-json";
import { sdkSpans } from "../lib/otel/sdk-spans";
import { startOtlpReceiver } from "../lib/otel/testing/otlp-receiver";
import { planTranscript } from "../lib/otel/transcript-spans";
import { recordRun } from "../lib/replay/testing";
import { RunRegistry } from "../lib/server/run-registry";
import { createMemoryStore } from "../lib/store";
import { largeTranscript } from "../lib/transcripts/testing";
import { fixed, loadAverage, table } from "./table";
import { measure } from "./timing";

/**
 * `npm run bench:otel` (also the last part of `npm run bench`): how long an OTLP export of a
 * 2,000- and a 50,000-event transcript takes, and how long demo runs take with live export to
 * no endpoint, a hung one and a failing one. Prints figures; asserts nothing.
 */
const REGISTRY = Symbol.for("wirescope.runs");
const noRunInfo = { getRunInfo: async () => null };
const redact = (text: string) => text;

async function exportFigures(): Promise<string[][]> {
  const rows: string[][] = [];
  for (const events of [2_000, 50_000]) {
    const transcript = largeTranscript(events);
    const eventCount = transcript.records.filter((record) => record.kind === "event").length;
    for (const content of [false, true]) {
      let spans = 0;
      let bytes = 0;
      const timing = await measure(
        async () => {
          const plan = await planTranscript(noRunInfo, transcript, { content, redact });
          const sdk = sdkSpans(plan);
          const body = otlpJson(sdk);
          spans = sdk.length;
          bytes = body.length;
          return spans;
        },
        { warmup: 1, runs: events > 10_000 ? 3 : 7 },
      );
      rows.push([
        String(eventCount),
        content ? "on" : "off",
        String(spans),
        fixed(bytes / 1e6, 2),
        fixed(timing.medianMs, 0),
        `${fixed(timing.minMs, 0)}–${fixed(timing.maxMs, 0)}`,
      ]);
    }
  }
  return rows;
}

/** Median run time of `runs` demo runs (pace 0) with the registry's finish hook as given. */
async function runTimes(
  mode: "none" | "hang" | "fail" | "refused",
  runs: number,
): Promise<string[]> {
  delete (globalThis as Record<symbol, unknown>)[REGISTRY];
  const receiver = mode === "hang" || mode === "fail" ? await startOtlpReceiver(mode) : undefined;
  const url = mode === "refused" ? "http://127.0.0.1:9" : receiver?.url;
  const registry = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 });
  (globalThis as Record<symbol, unknown>)[REGISTRY] = registry;
  const exporter =
    url === undefined
      ? undefined
      : new LiveExporter(
          {
            url: `${url}/v1/traces`,
            headers: {},
            content: false,
            timeoutMs: 2000,
            queueSize: 100,
            protocol: "http/json",
          },
          { redact, log: () => {} },
        );
  if (exporter !== undefined)
    registry.onFinish((run, store) => exporter.enqueue({ store, ...run }));
  const durations: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    await recordRun({ message: "list the files", dialect: "xml" }, createMemoryStore());
    durations.push(performance.now() - start);
  }
  const stats = exporter?.stats();
  await exporter?.shutdown();
  await receiver?.close();
  delete (globalThis as Record<symbol, unknown>)[REGISTRY];
  durations.sort((a, b) => a - b);
  const median = durations[Math.floor(durations.length / 2)] ?? 0;
  const p95 = durations[Math.min(durations.length - 1, Math.floor(durations.length * 0.95))] ?? 0;
  return [
    mode === "none"
      ? "no endpoint"
      : mode === "hang"
        ? "hung (never answers)"
        : mode === "fail"
          ? "500s"
          : "refuses connections",
    String(runs),
    fixed(median, 1),
    fixed(p95, 1),
    stats === undefined ? "—" : `${stats.sent}/${stats.failed}/${stats.dropped}/${stats.pending}`,
  ];
}

async function main(): Promise<void> {
  console.log("\nWirescope OpenTelemetry bench");
  console.log(
    `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, load ${loadAverage()}\n`,
  );
  console.log("OTLP/JSON export of a transcript (plan + SDK spans + the SDK's JSON serializer)");
  console.log(
    table(["events", "content", "spans", "MB", "median ms", "min–max ms"], await exportFigures()),
  );
  console.log(
    "\nDemo runs (xml, pace 0, memory store) with live export; the run never waits for it",
  );
  const rows: string[][] = [];
  await runTimes("none", 10); // warm-up, not shown
  // "none" first and last: the difference between those two rows is the machine's noise.
  for (const mode of ["none", "hang", "fail", "refused", "none"] as const)
    rows.push(await runTimes(mode, 30));
  console.log(
    table(["endpoint", "runs", "median ms", "p95 ms", "sent/failed/dropped/pending"], rows),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
