import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { followRun } from "./follow-run";
import type { RunStreamRecord } from "./run-stream";

const encoder = new TextEncoder();
const frame = (record: unknown) => encoder.encode(`data: ${JSON.stringify(record)}\n\n`);
const header = { kind: "run", transcriptId: "t1", runId: "r1" } as const;
const records: TranscriptRecord[] = Array.from({ length: 6 }, (_, index) => ({
  kind: "chunk",
  turn: 0,
  t: index,
  text: `piece ${index}`,
}));

/** An SSE answer with these records; `fail` makes the body error after them (a cut network). */
function answer(items: unknown[], fail = false): Response {
  let index = 0;
  // One record per read, so the error comes after the reader has had every record before it.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(stream) {
        if (index < items.length) stream.enqueue(frame(items[index++]));
        else if (fail) stream.error(new TypeError("network error"));
        else stream.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function server(replies: ((after: number) => Response)[]) {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (url: string) => {
      urls.push(url);
      const after = Number(new URL(url, "http://x").searchParams.get("after"));
      const reply = replies.shift();
      if (reply === undefined) throw new Error(`unexpected fetch ${url}`);
      return reply(after);
    },
  };
}

async function follow(first: Response, replies: ((after: number) => Response)[], after = 0) {
  const seen: RunStreamRecord[] = [];
  const fake = server(replies);
  const outcome = await followRun(first, after, {
    fetch: fake.fetch,
    onRecord: (record) => seen.push(record),
    wait: async () => {},
  });
  return { seen, outcome, urls: fake.urls };
}

describe("followRun", () => {
  it("attaches again from its count after a cut at every record index: each record once", async () => {
    for (let cut = 0; cut <= records.length; cut++) {
      const { seen, outcome, urls } = await follow(
        answer([header, ...records.slice(0, cut)], true),
        [(after) => answer([header, ...records.slice(after)])],
      );
      expect(urls).toEqual([`/api/runs/r1/events?after=${cut}`]);
      expect(seen).toEqual([header, ...records]);
      expect(outcome).toEqual({ kind: "ended", runId: "r1", count: records.length });
    }
  });

  it("follows a `dropped` note, and starts from the page's own count when reattaching", async () => {
    const { seen, urls } = await follow(
      answer([header, ...records.slice(2, 4), { kind: "dropped", after: 4 }]),
      [(after) => answer([header, ...records.slice(after)])],
      2,
    );
    expect(urls).toEqual(["/api/runs/r1/events?after=4"]);
    expect(seen).toEqual([header, ...records.slice(2)]);
  });

  it("gives up with the server's word when the run is gone, or after repeated failures", async () => {
    const gone = await follow(answer([header, ...records.slice(0, 2)], true), [
      () => Response.json({ error: 'runId: no run "r1".' }, { status: 404 }),
    ]);
    expect(gone.outcome).toEqual({
      kind: "failed",
      runId: "r1",
      count: 2,
      message: 'runId: no run "r1".',
    });
    const flaky = await follow(
      answer([header], true),
      Array.from({ length: 5 }, () => () => answer([header], true)),
    );
    expect(flaky.outcome.kind).toBe("failed");
    expect(flaky.urls).toHaveLength(5);
    const refused = await follow(
      Response.json({ error: "message: required" }, { status: 400 }),
      [],
    );
    expect(refused.outcome).toMatchObject({ kind: "failed", message: "message: required" });
  });

  it("waits out a server restart: attempts that find no server do not give up as soon", async () => {
    const refused = () => {
      throw new TypeError("Failed to fetch");
    };
    // The server goes away mid-run and is unreachable 12 times (a restart of several seconds).
    const replies: ((after: number) => Response)[] = [
      ...Array.from({ length: 12 }, () => refused),
      (after) => answer([header, ...records.slice(after)]),
    ];
    const waits: number[] = [];
    const seen: RunStreamRecord[] = [];
    const cuts: (string | null)[] = [];
    const fake = server(replies);
    const outcome = await followRun(answer([header, ...records.slice(0, 3)], true), 0, {
      fetch: fake.fetch,
      onRecord: (record) => seen.push(record),
      wait: async (attempt) => {
        waits.push(attempt);
      },
      onCut: (cut) => cuts.push(cut),
    });
    // Said while reattaching (the network error, then no server), and cleared once back.
    expect(cuts[0]).toBe("network error");
    expect(cuts.slice(1, 13).every((cut) => cut === "the server could not be reached")).toBe(true);
    expect(cuts.slice(13)).toEqual([null]);
    expect(outcome).toEqual({ kind: "ended", runId: "r1", count: records.length });
    expect(seen).toEqual([header, ...records]);
    expect(fake.urls).toHaveLength(13);
    // The back-off grows with each attempt.
    expect(waits).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    // Not for ever: no server for 21 attempts in a row gives up.
    const never = server(Array.from({ length: 30 }, () => refused));
    const gone = await followRun(answer([header], true), 0, {
      fetch: never.fetch,
      onRecord: () => {},
      wait: async () => {},
    });
    expect(gone).toMatchObject({
      kind: "failed",
      message: expect.stringContaining("could not be reached"),
    });
    expect(never.urls).toHaveLength(21);
  });

  it("ends as deleted when the stream says its transcript was deleted, and does not attach again", async () => {
    const deleted = { kind: "deleted", transcriptId: "t1" };
    const { seen, outcome, urls } = await follow(
      answer([header, ...records.slice(0, 2), deleted]),
      [],
    );
    expect(outcome).toEqual({ kind: "deleted", runId: "r1", count: 2 });
    expect(seen).toEqual([header, ...records.slice(0, 2)]);
    expect(urls).toEqual([]);
  });
});
