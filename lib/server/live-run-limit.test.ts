/** The live-run limit (`WIRESCOPE_MAX_LIVE_RUNS`): a start beyond it gets 429, not a slower server. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRunStream } from "../client/run-stream";
import { openSqliteStore, type Store } from "../store";
import { readConfig } from "./config";
import { runRegistry } from "./run-registry";
import { RunRequestError, startRun } from "./runs";

const dataDir = mkdtempSync(join(tmpdir(), "wirescope-limit-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  for await (const _ of readRunStream(body));
}

describe("the live-run limit", () => {
  it("refuses a start beyond it with 429 naming it, counting starts not yet registered", async () => {
    const store = openSqliteStore({ path: join(dataDir, "wirescope.db") });
    const config = readConfig({
      WIRESCOPE_DATA_DIR: dataDir,
      WIRESCOPE_DEMO_PACE_MS: "5",
      WIRESCOPE_MAX_LIVE_RUNS: "2",
    });
    const start = () => startRun({ message: "hello", dialect: "xml" }, { store, config });
    expect(runRegistry().active()).toEqual([]);
    // Two asked for in the same turn, and a third: the third is refused before it writes.
    const [first, second, third] = await Promise.allSettled([start(), start(), start()]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("fulfilled");
    expect(third.status).toBe("rejected");
    const refusal = (third as PromiseRejectedResult).reason;
    expect(refusal).toBeInstanceOf(RunRequestError);
    expect(refusal).toMatchObject({ status: 429 });
    expect((refusal as Error).message).toMatch(
      /^runs: 2 runs are going on this server, its limit \(WIRESCOPE_MAX_LIVE_RUNS\)/,
    );
    expect((await store.listTranscripts()).length).toBe(2);
    // Once they have ended, a new one starts.
    for (const started of [first, second])
      if (started.status === "fulfilled") await drain(started.value.body);
    while (runRegistry().active().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await start();
    await drain(after.body);
    await store.close();
  });

  it("refuses before reading anything from the store, and does not count captured calls", async () => {
    const store = openSqliteStore({ path: join(dataDir, "order.db") });
    const config = {
      ...readConfig({ WIRESCOPE_DATA_DIR: dataDir, WIRESCOPE_DEMO_PACE_MS: "20" }),
      maxLiveRuns: 1,
    };
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
    });
    const holding = await startRun({ message: "hold", dialect: "xml" }, { store, config });
    let reads = 0;
    const counting = new Proxy(store, {
      get(target, key) {
        if (key !== "getConversation") return Reflect.get(target, key);
        return (...args: Parameters<Store["getConversation"]>) => {
          reads++;
          return target.getConversation(...args);
        };
      },
    });
    const refused = await startRun(
      { message: "x", dialect: "xml", transcriptId: meta.id },
      { store: counting, config },
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429 });
    expect(reads).toBe(0);
    // Stopped rather than waited for: at the demo's pace its answer takes seconds.
    for (const { runId } of runRegistry().active()) runRegistry().stop(runId);
    await drain(holding.body);
    while (runRegistry().active().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    // A run another part of the server opened (a captured call, say) is not counted.
    const other = await runRegistry().open({
      store,
      transcriptId: meta.id,
      controller: new AbortController(),
    });
    const started = await startRun({ message: "hello", dialect: "xml" }, { store, config });
    runRegistry().stop(started.runId);
    await drain(started.body);
    other.publish({ kind: "event", event: { type: "end", id: "e", timestamp: 1 } });
    await runRegistry().finish(other, store);
    await store.close();
  });
});
