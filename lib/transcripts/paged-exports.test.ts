/**
 * Every streamed export (read from store pages) against the whole-array export of the same
 * transcript: the same bytes, in the same parts (Markdown's 64 MB cut falls between parts).
 * Pages of 3 records put page boundaries inside joined blocks, between calls and results and
 * between requests that refer to each other.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergePrices } from "../cost";
import { summarizeRecords } from "../metrics/summarize";
import { otlpFile, otlpFileParts } from "../otel/otlp-file";
import type { ProtocolEvent } from "../protocol/events";
import { createMemoryStore, openSqliteStore, type Store } from "../store";
import { openPagedTranscript, type PagedTranscript } from "../store/paged-transcript";
import type { TranscriptRecord } from "../store/store";
import { jsonArrayParts, jsonArrayPartsOf } from "./export-stream";
import { fileSummaryOf } from "./file-summary";
import { exportJsonl, jsonlParts } from "./jsonl";
import { type MarkdownOptions, markdownParts } from "./markdown";
import { markdownPageParts } from "./markdown-pages";
import { summarizePages } from "./paged-summary";
import { taskStepBatches, toTaskSteps } from "./task-step-stream";
import { largeTranscript, SAMPLE_START, sampleRecords, sampleTranscript } from "./testing";
import { transcriptJsonParts } from "./transcript-json";

const event = (value: ProtocolEvent): TranscriptRecord => ({ kind: "event", event: value });

/** Action-dialect calls whose results come late, pieces split by a sub-agent, `$variables`. */
function actionRecords(): TranscriptRecord[] {
  const call = (id: string, key: string, turn: number): TranscriptRecord =>
    event({
      type: "call",
      id: `e-${id}`,
      timestamp: SAMPLE_START + 1,
      turn,
      span: { start: 0, end: 1 },
      call: { id, name: "calculate", args: { expression: "40 + 50" } },
      action: { type: "tool", mode: "async", outputKey: key },
    });
  const result = (callId: string, value: number, turn?: number): TranscriptRecord =>
    event({
      type: "result",
      id: `r-${callId}-${value}`,
      timestamp: SAMPLE_START + 2,
      callId,
      ...(turn === undefined ? {} : { turn }),
      payload: {
        tool: "calculate",
        status: "success",
        content: { expression: "40 + 50", value },
        outcome: "Done",
        durationMs: 1,
      },
    });
  const piece = (id: string, content: string, type: "respond" | "think" = "respond") =>
    event({
      type,
      id,
      timestamp: SAMPLE_START + 3,
      turn: 0,
      span: { start: 0, end: 1 },
      content,
    });
  const sub: TranscriptRecord = event({
    type: "respond",
    id: "sub-1",
    parent: "call1",
    timestamp: SAMPLE_START + 3,
    turn: 5,
    span: { start: 0, end: 1 },
    content: "sub-agent text",
  });
  return [
    event({ type: "user", id: "u-a", timestamp: SAMPLE_START, content: "add them" }),
    call("call1", "total", 0),
    call("call2", "other", 0),
    piece("answer", "Total "),
    sub,
    sub,
    piece("answer", "$total"),
    piece("answer", " and $other"),
    piece("answer", " (thinking)", "think"),
    piece("answer", " again"),
    result("call2", 7, 0),
    { kind: "chunk", turn: 0, t: 1, text: "chunk" },
    result("call1", 90),
    result("nobody", 1),
    call("call1", "total", 1),
    piece("later", "  "),
  ];
}

/** Records with their run ids: the sample's two runs, then runs that interleave. */
function mixedRecords(): { runId: string; record: TranscriptRecord }[] {
  const sample = sampleTranscript().records.map((record) => {
    const { seq: _seq, runId, ...rest } = record;
    return { runId, record: rest as TranscriptRecord };
  });
  const action = actionRecords();
  return [
    ...sample,
    ...action.slice(0, 6).map((record) => ({ runId: "run-a", record })),
    ...action.slice(6, 10).map((record) => ({ runId: "run-b", record })),
    ...action.slice(10).map((record) => ({ runId: "run-a", record })),
    ...sampleRecords().map((record) => ({ runId: "run-c", record })),
  ];
}

async function fill(
  store: Store,
  records: readonly { runId: string; record: TranscriptRecord }[],
  create: Parameters<Store["createTranscript"]>[0],
): Promise<string> {
  const meta = await store.createTranscript(create);
  for (let at = 0; at < records.length; ) {
    const runId = records[at]?.runId as string;
    let end = at;
    while (end < records.length && records[end]?.runId === runId) end++;
    const batch = records.slice(at, end).map((entry) => entry.record);
    await store.appendRecords(meta.id, runId, batch);
    at = end;
  }
  return meta.id;
}

async function collect(parts: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const OPTIONS = { prices: mergePrices(), model: { provider: "demo", id: "scripted" } };
const MARKDOWN_SWITCHES: MarkdownOptions[] = [
  {},
  { reasoning: false, tools: false, requests: true, errors: false },
];

function describeStore(name: string, open: (directory: string) => Store) {
  describe(`exports streamed from ${name} pages`, () => {
    let directory: string;
    let store: Store;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), "wirescope-paged-exports-"));
      store = open(directory);
      const { meta } = sampleTranscript();
      const base = {
        dialect: meta.dialect,
        model: meta.model,
        system: meta.system,
        tools: meta.tools,
      };
      ids.mixed = await fill(store, mixedRecords(), { ...base, title: "Mixed ✨" });
      ids.action = await fill(
        store,
        actionRecords().map((record) => ({ runId: "run-1", record })),
        { ...base, dialect: "action", title: "Action" },
      );
      ids.fork = await fill(
        store,
        sampleRecords()
          .slice(0, 7)
          .map((record) => ({ runId: "run-f", record })),
        { ...base, title: "Fork", parentId: ids.mixed, forkPoint: 7 },
      );
      const large = largeTranscript(700).records.map(({ seq: _seq, runId, ...record }) => ({
        runId,
        record: record as TranscriptRecord,
      }));
      ids.large = await fill(store, large, { ...base, title: "Long", source: "import" });
      ids.empty = await fill(store, [], { ...base, title: "Empty" });
    });

    afterAll(async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    });

    const cases = ["mixed", "action", "fork", "large", "empty"];
    for (const which of cases)
      for (const pageSize of [3, 1000])
        it(`writes ${which} the same as whole, ${pageSize} records a page`, async () => {
          const id = ids[which] as string;
          const whole = await store.getTranscript(id);
          const paged = (await openPagedTranscript(store, id, pageSize)) as PagedTranscript;
          expect(whole).not.toBeNull();
          if (whole === null) return;
          expect(paged.meta).toEqual(whole.meta);

          const summary = summarizeRecords(whole.records, OPTIONS);
          expect(await summarizePages(paged, OPTIONS)).toEqual(summary);

          const file = fileSummaryOf(summary);
          const jsonl = await collect(jsonlParts(paged.meta, paged.pages(), { summary: file }));
          expect(jsonl.join("")).toBe(exportJsonl(whole, { summary: file }));
          if (which === "large") expect(jsonl.join("")).toContain('"messagesFrom"');

          for (const switches of MARKDOWN_SWITCHES) {
            const options = { ...switches, summary };
            const expected = [...markdownParts(whole, options)];
            expect(await collect(markdownPageParts(paged, options))).toEqual(expected);
            expect(await collect(markdownPageParts(paged, switches, OPTIONS))).toEqual(expected);
          }

          const steps = await collect(jsonArrayPartsOf(taskStepBatches(paged.pages())));
          expect(steps).toEqual([...jsonArrayParts(toTaskSteps(whole.records))]);

          for (const content of [false, true]) {
            const streamed = await collect(otlpFileParts(store, paged, { content }, {}));
            const built = new TextDecoder().decode(await otlpFile(store, whole, { content }, {}));
            expect(streamed.join("")).toBe(built);
          }

          const extra = { importedFrom: { originalId: "x", format: "jsonl" } };
          const json = await collect(transcriptJsonParts(paged, extra));
          expect(json.join("")).toBe(JSON.stringify({ ...whole, ...extra }));
          expect((await collect(transcriptJsonParts(paged))).join("")).toBe(JSON.stringify(whole));
        });

    it("leaves out what is appended after the export started", async () => {
      const id = ids.fork as string;
      const paged = (await openPagedTranscript(store, id, 2)) as PagedTranscript;
      const before = (await collect(transcriptJsonParts(paged))).join("");
      await store.appendRecords(id, "run-late", [sampleRecords()[0] as TranscriptRecord]);
      expect((await collect(transcriptJsonParts(paged))).join("")).toBe(before);
      expect((await store.getTranscript(id))?.records).toHaveLength(8);
    });
  });
}

describeStore("memory", () => createMemoryStore());
describeStore("SQLite", (directory) => openSqliteStore({ path: join(directory, "paged.db") }));
