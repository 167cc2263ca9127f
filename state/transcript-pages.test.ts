import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { TranscriptRecord } from "@/lib/protocol/records";
import { feedChunks } from "@/lib/protocol/testing";
import type { StoredRecord, TranscriptMeta } from "@/lib/store/store";
import { usePlayground } from "./playground-store";
import {
  catchUp,
  isWhole,
  loadAll,
  loadOlder,
  readTranscriptTail,
  refreshTranscript,
} from "./transcript-pages";

const TURN_TEXT = '<think>Look.</think>\n<execute>[{"name": "list", "args": {}}]</execute>';
const META = {
  id: "long",
  title: "long",
  dialect: "xml",
  model: { provider: "demo", id: "scripted" },
} as unknown as TranscriptMeta;

/** `turns` model turns, each after a user message, in 4-char chunks: ~30 records a turn. */
function transcript(turns: number): StoredRecord[] {
  const records: TranscriptRecord[] = [];
  for (let turn = 0; turn < turns; turn++) {
    records.push({
      kind: "event",
      event: { type: "user", id: `u${turn}`, timestamp: 0, content: `m${turn}` },
    });
    const chunks: string[] = [];
    for (let at = 0; at < TURN_TEXT.length; at += 4) chunks.push(TURN_TEXT.slice(at, at + 4));
    for (const text of chunks) records.push({ kind: "chunk", turn, t: 0, text });
    for (const event of feedChunks("xml", chunks, { turn, idPrefix: `t${turn}-` }))
      records.push({ kind: "event", event });
  }
  return records.map((record, index) => ({ ...record, seq: index + 1, runId: "r" }));
}

let all: StoredRecord[] = [];

/** The paging route over `all` (docs/http-api.md). */
function serve(input: RequestInfo | URL): Promise<Response> {
  const url = new URL(String(input), "http://localhost");
  const limit = Number(url.searchParams.get("limit"));
  const after = Number(url.searchParams.get("after") ?? 0);
  const before = Number(url.searchParams.get("before") ?? Number.POSITIVE_INFINITY);
  const range = all.filter((record) => record.seq > after && record.seq < before);
  const records =
    url.searchParams.get("from") === "end" ? range.slice(-limit) : range.slice(0, limit);
  return Promise.resolve(Response.json({ meta: META, records, recordCount: all.length }));
}

function fold(records: readonly TranscriptRecord[]): RunLog {
  const log = new RunLog();
  for (const record of records) log.apply(record);
  return log;
}

beforeEach(() => {
  // 400 turns of 22 records: 8,800 records, more than the tail (2,000) and a page (4,000).
  all = transcript(400);
  vi.stubGlobal("fetch", vi.fn(serve));
  usePlayground.getState().newConversation();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openTail() {
  const tail = await readTranscriptTail("long");
  if (!tail.ok) throw new Error(tail.error);
  usePlayground.getState().openTranscript(tail.value);
  return tail.value;
}

describe("a transcript opened from its tail", () => {
  it("holds its last records from a whole turn on, and says how many there are", async () => {
    const tail = await openTail();
    expect(tail.recordCount).toBe(all.length);
    expect(tail.records.length).toBeLessThanOrEqual(2000);
    expect(tail.records.at(-1)?.seq).toBe(all.length);
    expect(tail.records[0]).toMatchObject({ kind: "event", event: { type: "user" } });
    expect(isWhole(usePlayground.getState().transcript)).toBe(false);
  });

  it("loads the page before it in front, keeping the selection and every id", async () => {
    const tail = await openTail();
    usePlayground.getState().select("t399-2");
    expect(await loadOlder()).toBe(false);
    const state = usePlayground.getState();
    const records = state.transcript?.records ?? [];
    expect(records.length).toBeGreaterThan(tail.records.length);
    expect(records).toEqual(all.slice(all.length - records.length));
    expect(state.selectedId).toBe("t399-2");
    expect(state.log.events).toEqual(fold(records).events);
    expect(state.olderLoading).toBe(false);
  });

  it("loads everything for replay: the same log as the whole transcript", async () => {
    await openTail();
    expect(await loadAll()).toBe(true);
    const state = usePlayground.getState();
    expect(state.transcript?.records).toEqual(all);
    expect(isWhole(state.transcript)).toBe(true);
    expect(state.log.events).toEqual(fold(all).events);
    expect(state.log.turns.get(0)?.raw).toBe(TURN_TEXT);
  });

  it("loads nothing while a run shows: its log holds more than the stored records", async () => {
    const tail = await openTail();
    usePlayground.getState().setStatus("running");
    expect(await loadOlder()).toBe(false);
    expect(usePlayground.getState().transcript?.records).toBe(tail.records);
  });

  it("after a run, gains the records the run added, read after the last one it has", async () => {
    const tail = await openTail();
    const before = all.length;
    all = [
      ...all,
      ...transcript(201)
        .slice(before)
        .map((record) => ({ ...record })),
    ];
    await refreshTranscript("long");
    const records = usePlayground.getState().transcript?.records ?? [];
    expect(records).toEqual([...tail.records, ...all.slice(before)]);
    expect(usePlayground.getState().transcript?.recordCount).toBe(all.length);
  });

  it("catches up with records stored after its tail was read, folded into the log", async () => {
    const tail = await openTail();
    const before = all.length;
    all = [...all, ...transcript(401).slice(before)];
    await catchUp(tail);
    const state = usePlayground.getState();
    expect(state.transcript?.records).toEqual([...tail.records, ...all.slice(before)]);
    expect(state.transcript?.recordCount).toBe(all.length);
    expect(state.log.events).toEqual(fold(state.transcript?.records ?? []).events);
    expect(state.log.get("t400-2")).toBeDefined();
  });

  it("catching up finds nothing to add: the page stays as it was", async () => {
    const tail = await openTail();
    const log = usePlayground.getState().log;
    await catchUp(tail);
    expect(usePlayground.getState().transcript).toBe(tail);
    expect(usePlayground.getState().log).toBe(log);
  });

  it("does not catch up once another transcript shows", async () => {
    const tail = await openTail();
    all = [...all, ...transcript(401).slice(all.length)];
    usePlayground.getState().newConversation();
    await catchUp(tail);
    expect(usePlayground.getState().transcript).toBeNull();
    expect(usePlayground.getState().log.events).toEqual([]);
  });
});
