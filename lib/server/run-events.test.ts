/**
 * `runEvents`' store look-ups when many viewers open one run at once: they share one look-up of
 * the transcript (and of another instance's run), and none is answered by a look-up that started
 * before it arrived, so a transcript deleted before a request is still a 404 for it.
 */
import { describe, expect, it } from "vitest";
import { createMemoryStore, type Store } from "../store";
import { coalescedRead } from "./coalesced-read";
import { runEvents } from "./run-events";
import { runRegistry } from "./run-registry";

/** The store with its `readRecords` calls counted, each held until `release` when `hold` is set. */
function countingStore(store: Store) {
  const state = { reads: 0, hold: false, held: [] as (() => void)[] };
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      if (property !== "readRecords") return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Store["readRecords"]>) => {
        state.reads += 1;
        // Read now, answer later: what a slow database does.
        const page = await target.readRecords(...args);
        if (state.hold) await new Promise<void>((resolve) => state.held.push(resolve));
        return page;
      };
    },
  });
  const release = () => {
    for (const resolve of state.held.splice(0)) resolve();
  };
  return { store: wrapped, state, release };
}

async function liveRun(store: Store) {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "x" },
  });
  return runRegistry().open({ store, transcriptId: meta.id, controller: new AbortController() });
}

describe("runEvents with many viewers of one live run", () => {
  it("200 viewers at once look the transcript up at most twice, not 200 times", async () => {
    const base = createMemoryStore();
    const counted = countingStore(base);
    const run = await liveRun(base);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => runEvents(run.runId, "0", counted.store)),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    expect(counted.state.reads).toBeLessThanOrEqual(2);
    for (const answer of answers) if (answer.ok) await answer.body.cancel();
    await runRegistry().finish(run, base);
  });

  it("a viewer arriving after a delete gets 404 though a look-up begun before it is in flight", async () => {
    const base = createMemoryStore();
    const counted = countingStore(base);
    const run = await liveRun(base);
    counted.state.hold = true;
    // The first viewer's look-up has read the transcript (still there) and not answered yet.
    const early = runEvents(run.runId, "0", counted.store);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(counted.state.held).toHaveLength(1);
    expect(await base.deleteTranscript(run.transcriptId)).toBe(true);
    const late = runEvents(run.runId, "0", counted.store);
    counted.release();
    // The second look-up starts once the first has answered; hold it no more.
    counted.state.hold = false;
    const earlyAnswer = await early;
    expect(earlyAnswer.ok).toBe(true);
    if (earlyAnswer.ok) await earlyAnswer.body.cancel();
    expect(await late).toMatchObject({ ok: false, status: 404 });
    await runRegistry().finish(run, base);
  });
});

describe("coalescedRead", () => {
  it("shares a call among callers that arrive while it waits to start, one per key", async () => {
    const started: string[] = [];
    const gates: (() => void)[] = [];
    const read = coalescedRead(async (key) => {
      started.push(key);
      await new Promise<void>((resolve) => gates.push(resolve));
      return `${key}#${started.length}`;
    });
    const first = read("a");
    const second = [read("a"), read("a"), read("a")];
    const other = read("b");
    expect(started).toEqual(["a", "b"]);
    gates.splice(0).forEach((open) => {
      open();
    });
    expect(await first).toBe("a#2");
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The three that came during the first call share the next one, started after it.
    expect(started).toEqual(["a", "b", "a"]);
    gates.splice(0).forEach((open) => {
      open();
    });
    expect(new Set(await Promise.all(second))).toEqual(new Set(["a#3"]));
    expect(await other).toBe("b#2");
  });

  it("a failed call fails its callers only; the next caller gets a call of its own", async () => {
    let calls = 0;
    const read = coalescedRead(async () => {
      calls += 1;
      if (calls === 1) throw new Error("down");
      return calls;
    });
    await expect(read("a")).rejects.toThrow("down");
    expect(await read("a")).toBe(2);
  });
});
