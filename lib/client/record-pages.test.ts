import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { feedChunks } from "../protocol/testing";
import type { StoredRecord } from "../store/store";
import {
  type FetchRecords,
  foldInSlices,
  type RecordPageQuery,
  readBackward,
  readForward,
  readFromStart,
  startsAtFirst,
  wholeTurnsFrom,
} from "./record-pages";
import { RunLog } from "./run-log";

const TURN_TEXT =
  '<think>Look first, then list.</think>\n<execute>[{"name": "list", "args": {}}]</execute>';

/** A conversation of `turns` model turns (a user message first), streamed in 6-char chunks. */
function transcript(turns: number, chunkSize = 6): StoredRecord[] {
  const records: TranscriptRecord[] = [
    { kind: "event", event: { type: "user", id: "u", timestamp: 0, content: "go" } },
  ];
  for (let turn = 0; turn < turns; turn++) {
    const chunks: string[] = [];
    for (let at = 0; at < TURN_TEXT.length; at += chunkSize)
      chunks.push(TURN_TEXT.slice(at, at + chunkSize));
    records.push({
      kind: "request",
      turn,
      t: 0,
      provider: "demo",
      model: "m",
      messages: [],
      settings: {},
    });
    for (const [index, text] of chunks.entries())
      records.push({ kind: "chunk", turn, t: index, text });
    for (const event of feedChunks("xml", chunks, { turn, idPrefix: `t${turn}-` }))
      records.push({ kind: "event", event });
  }
  return records.map((record, index) => ({ ...record, seq: index + 1, runId: "r" }));
}

/** The route's paging over `all`, counting the requests it answers. */
function server(all: StoredRecord[]) {
  const queries: RecordPageQuery[] = [];
  const fetchRecords: FetchRecords = async (query) => {
    queries.push(query);
    const range = all.filter(
      (record) =>
        record.seq > (query.after ?? 0) && record.seq < (query.before ?? Number.POSITIVE_INFINITY),
    );
    const records = query.from === "end" ? range.slice(-query.limit) : range.slice(0, query.limit);
    return { ok: true, value: { records, recordCount: all.length } };
  };
  return { fetchRecords, queries };
}

function fold(records: readonly TranscriptRecord[]): RunLog {
  const log = new RunLog();
  for (const record of records) log.apply(record);
  return log;
}

describe("wholeTurnsFrom", () => {
  const all = transcript(3);
  it("keeps everything from the transcript's first record", () => {
    expect(wholeTurnsFrom(all)).toBe(0);
  });

  it("drops the turn that may have begun earlier, up to its last record", () => {
    const cut = all.slice(5);
    const from = wholeTurnsFrom(cut);
    expect(from).not.toBeNull();
    const first = cut[from ?? 0];
    expect(first).toMatchObject({ kind: "request", turn: 1 });
  });

  it("asks for more when the records hold part of one turn only", () => {
    const turnOne = all.filter((record) => "turn" in record && record.turn === 1);
    expect(wholeTurnsFrom(turnOne.slice(2))).toBeNull();
  });
});

describe("readBackward", () => {
  it("reads the tail back to a whole turn; its turns fold exactly as in the whole transcript", async () => {
    const all = transcript(40);
    const { fetchRecords } = server(all);
    const tail = await readBackward(fetchRecords, undefined, 100);
    if (!tail.ok) throw new Error(tail.error);
    expect(tail.value.recordCount).toBe(all.length);
    expect(tail.value.records.at(-1)?.seq).toBe(all.length);
    expect(tail.value.records.length).toBeLessThanOrEqual(100);
    expect(startsAtFirst(tail.value.records)).toBe(false);

    const whole = fold(all);
    const part = fold(tail.value.records);
    expect(part.turns.size).toBeGreaterThan(0);
    for (const [turn, log] of part.turns) {
      expect(log.raw).toBe(whole.turns.get(turn)?.raw);
      expect(log.request).toEqual(whole.turns.get(turn)?.request);
      for (const id of log.events) expect(part.get(id)).toEqual(whole.get(id));
    }
  });

  it("reads further back while the page holds part of one long turn", async () => {
    // One character per chunk: a turn is longer than a page.
    const all = transcript(3, 1);
    const { fetchRecords, queries } = server(all);
    const tail = await readBackward(fetchRecords, undefined, 30);
    if (!tail.ok) throw new Error(tail.error);
    expect(queries.length).toBeGreaterThan(1);
    const part = fold(tail.value.records);
    expect(part.turns.get(2)?.raw).toBe(TURN_TEXT);
    expect(part.turns.has(0)).toBe(false);
  });

  it("pages older records in front of the newer ones until the first, giving the whole transcript", async () => {
    const all = transcript(25);
    const { fetchRecords } = server(all);
    const first = await readBackward(fetchRecords, undefined, 60);
    if (!first.ok) throw new Error(first.error);
    let window = first.value.records;
    while (!startsAtFirst(window)) {
      const older = await readBackward(fetchRecords, window[0]?.seq, 60);
      if (!older.ok) throw new Error(older.error);
      window = older.value.records.concat(window);
    }
    expect(window).toEqual(all);
    expect(fold(window).events).toEqual(fold(all).events);
  });

  it("passes the server's refusal on", async () => {
    const refused: FetchRecords = async () => ({ ok: false, error: "id: no transcript" });
    expect(await readBackward(refused, undefined, 10)).toEqual({
      ok: false,
      error: "id: no transcript",
    });
  });
});

describe("readForward", () => {
  it("reads every record after a seq, page by page", async () => {
    const all = transcript(10);
    const { fetchRecords, queries } = server(all);
    const rest = await readForward(fetchRecords, 7, 16);
    if (!rest.ok) throw new Error(rest.error);
    expect(rest.value.records).toEqual(all.slice(7));
    expect(queries.length).toBe(Math.ceil((all.length - 7) / 16));
  });
});

describe("foldInSlices", () => {
  it("folds like one pass, pausing between slices", async () => {
    const all = transcript(12);
    let pauses = 0;
    const log = await foldInSlices("t", all, async () => void pauses++, 50);
    expect(pauses).toBe(Math.ceil(all.length / 50) - 1);
    expect(log.transcriptId).toBe("t");
    expect(log.events).toEqual(fold(all).events);
    expect(log.turns.get(11)?.raw).toBe(TURN_TEXT);
  });
});

describe("readFromStart", () => {
  const all = transcript(8);

  async function readAll(reader: ReturnType<typeof readFromStart>) {
    const pages: StoredRecord[][] = [];
    for (;;) {
      const page = await reader.next();
      if (!page.ok) throw new Error(page.error);
      pages.push(page.value.records);
      if (page.value.done) return pages;
    }
  }

  it("reads from the first record a page at a time, to the last, then says done", async () => {
    const { fetchRecords, queries } = server(all);
    const reader = readFromStart(fetchRecords, { known: [], recordCount: all.length, limit: 40 });
    const pages = await readAll(reader);
    expect(pages.flat()).toEqual(all);
    expect(pages.slice(0, -1).every((page) => page.length === 40)).toBe(true);
    expect(queries.map((query) => query.after)).toEqual(pages.map((_, index) => index * 40));
    // The transcript's runs are asked for with the first page only.
    expect(queries.map((query) => query.runs)).toEqual(
      pages.map((_, index) => (index === 0 ? 1 : undefined)),
    );
    expect(await reader.next()).toEqual({
      ok: true,
      value: { records: [], recordCount: all.length, done: true },
    });
  });

  it("hands over the loaded tail from memory once it reaches it, reading none of it again", async () => {
    const { fetchRecords, queries } = server(all);
    const known = all.slice(100);
    const reader = readFromStart(fetchRecords, { known, recordCount: all.length, limit: 40 });
    const pages = await readAll(reader);
    expect(pages.flat()).toEqual(all);
    // 0–40, 40–80, 80–100 (cut short at the tail), then the tail from memory.
    expect(queries.map((query) => [query.after, query.limit])).toEqual([
      [0, 40],
      [40, 40],
      [80, 20],
    ]);
  });

  it("reads on past the tail when the transcript grew since it was loaded", async () => {
    const { fetchRecords } = server(all);
    const known = all.slice(100, 150);
    const reader = readFromStart(fetchRecords, { known, recordCount: 150, limit: 40 });
    expect((await readAll(reader)).flat()).toEqual(all);
  });

  it("hands on the transcript's runs with the page they came with", async () => {
    const { fetchRecords } = server(all);
    const runs = [
      { runId: "r", firstSeq: 1, lastSeq: all.length, startedAt: 0, lastT: 9, lastAt: null },
    ];
    const withRuns: FetchRecords = async (query) => {
      const read = await fetchRecords(query);
      return read.ok && query.runs === 1 ? { ok: true, value: { ...read.value, runs } } : read;
    };
    const reader = readFromStart(withRuns, { known: [], recordCount: all.length, limit: 40 });
    const first = await reader.next();
    expect(first.ok && first.value.runs).toEqual(runs);
    const second = await reader.next();
    expect(second.ok && second.value).not.toHaveProperty("runs");
  });

  it("passes a failed read on, and can be asked again", async () => {
    const { fetchRecords } = server(all);
    let fail = true;
    const flaky: FetchRecords = (query) =>
      fail ? Promise.resolve({ ok: false, error: "offline" }) : fetchRecords(query);
    const reader = readFromStart(flaky, { known: [], recordCount: all.length, limit: 500 });
    expect(await reader.next()).toEqual({ ok: false, error: "offline" });
    fail = false;
    expect((await readAll(reader)).flat()).toEqual(all);
  });
});
