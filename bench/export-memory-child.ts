/**
 * One measurement of `bench/export-memory.ts`, in a process of its own so its peak RSS is the
 * export's: `node --import tsx bench/export-memory-child.ts <root> <id> <warm id> <format> <n>`,
 * run with the checkout to measure (`<root>`) as its working directory and
 * `WIRESCOPE_DATA_DIR` set. Calls the route handlers of `<root>` in-process (no Next), reads
 * `n` downloads at once to the end, and prints one JSON line.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

interface Handler {
  GET: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
}

const [root = ".", id = "", warmId = "", format = "jsonl", count = "1"] = process.argv.slice(2);

async function handlerFor(which: string): Promise<{ handler: Handler; query: string }> {
  const route = (path: string) =>
    import(join(root, "app/api/transcripts/[id]", path)) as Promise<Handler>;
  if (which === "whole") return { handler: await route("route.ts"), query: "" };
  const query = which === "otlp+content" ? "?format=otlp&content=1" : `?format=${which}`;
  return { handler: await route("export/route.ts"), query };
}

/** Bytes of one download, read to the end and dropped as they come. */
async function download(handler: Handler, query: string, transcriptId: string) {
  const request = new Request(`http://127.0.0.1/api/transcripts/${transcriptId}${query}`);
  const response = await handler.GET(request, { params: Promise.resolve({ id: transcriptId }) });
  let bytes = 0;
  let failed: string | undefined;
  const hash = createHash("sha256");
  if (response.body !== null) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        hash.update(value);
      }
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
    }
  }
  const sha256 = hash.digest("hex").slice(0, 12);
  return { status: response.status, bytes, sha256, ...(failed === undefined ? {} : { failed }) };
}

async function main(): Promise<void> {
  const { handler, query } = await handlerFor(format);
  // The first download loads the modules and opens the store: not part of the export's cost.
  await download(handler, query, warmId);
  const baseKb = process.resourceUsage().maxRSS;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: Number(count) }, () => download(handler, query, id)),
  );
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      format,
      count: Number(count),
      results,
      wallMs: Math.round(performance.now() - started),
      cpuMs: Math.round((used.user + used.system) / 1000),
      baseMb: Math.round(baseKb / 1024),
      peakMb: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
