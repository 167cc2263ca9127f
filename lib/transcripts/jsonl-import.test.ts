import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory-store";
import type { Store, StoredRecord } from "../store/store";
import { exportJsonl, parseJsonl } from "./jsonl";
import { importJsonlStream } from "./jsonl-import";
import { loopTurns } from "./loop-turns";
import { largeTranscript, sampleTranscript } from "./testing";

/** `text` as a byte stream cut into pieces of the given sizes, in turn (splitting characters). */
function streamOf(text: string, sizes: readonly number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = sizes[turn++ % sizes.length] as number;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

const positions = (records: StoredRecord[]) => records.map(({ seq: _seq, ...record }) => record);

async function visible(store: Store) {
  return (await store.listTranscripts()).map((summary) => summary.id);
}

describe("importJsonlStream", () => {
  it("round-trips a 50,000-event transcript, streamed in pieces that split characters", async () => {
    const transcript = largeTranscript(50_000);
    const events = transcript.records.filter((record) => record.kind === "event").length;
    expect(events).toBeGreaterThanOrEqual(50_000);
    const text = exportJsonl(transcript);
    const store = createMemoryStore();
    const result = await importJsonlStream(store, streamOf(text, [65_521, 7, 131_071, 1]));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.records).toBe(transcript.records.length);
    const imported = await store.getTranscript(result.meta.id);
    expect(imported?.records.length).toBe(transcript.records.length);
    // One string compare: deep equality over this many records is the slow part otherwise.
    expect(JSON.stringify(positions(imported?.records ?? []))).toBe(
      JSON.stringify(positions(transcript.records)),
    );
    // Export → import → export: the same lines, the header's id and time aside; requests
    // refer to earlier ones, so the file grows with the conversation.
    const again = exportJsonl(imported ?? transcript);
    expect(again.slice(again.indexOf("\n"))).toBe(text.slice(text.indexOf("\n")));
    expect(text).toContain('"messagesFrom":{"record":');
  }, 60_000);

  it("accepts a BOM, CRLF, blank lines and a last line without a newline, split anywhere", async () => {
    const transcript = sampleTranscript();
    const lines = exportJsonl(transcript).trimEnd().split("\n");
    const text = `\uFEFF${lines.join("\r\n\r\n")}`;
    for (const size of [1, 2, 3, 5, 64]) {
      const store = createMemoryStore();
      const result = await importJsonlStream(store, streamOf(text, [size]));
      if (!result.ok) throw new Error(result.error.message);
      const imported = await store.getTranscript(result.meta.id);
      expect(positions(imported?.records ?? [])).toEqual(positions(transcript.records));
      expect(result.origin.originalId).toBe("sample-1");
    }
  });

  it("refuses the first bad line and leaves nothing visible, even after records were written", async () => {
    const lines = exportJsonl(largeTranscript(3000)).trimEnd().split("\n");
    lines[2500] = '{"kind":"event","event":{"type":"thought"}}';
    const store = createMemoryStore({ newId: () => "refused" });
    const result = await importJsonlStream(store, streamOf(lines.join("\n"), [4096]));
    expect(result).toEqual({
      ok: false,
      error: {
        reason: "invalid",
        message: expect.stringMatching(/^line 2501: event\.type: /),
        line: 2501,
      },
    });
    expect(await visible(store)).toEqual([]);
    // Nor kept hidden: the 2,499 records written are gone with it (not restorable, unknown).
    expect(await store.restoreTranscript("refused")).toBe(false);
  });

  it("refuses an event id used twice, naming the second line; a block's pieces share theirs", async () => {
    const header = exportJsonl(sampleTranscript()).split("\n")[0] as string;
    const piece = (runId: string, turn: number, content: string) =>
      JSON.stringify({
        kind: "event",
        event: {
          type: "respond",
          id: "r1",
          timestamp: 1,
          turn,
          span: { start: 0, end: 1 },
          content,
        },
        runId,
      });
    const user = (id: string) =>
      JSON.stringify({ kind: "event", event: { type: "user", id, timestamp: 1, content: "hi" } });
    // Pieces of one block (one type, turn and run) share an id: imported as they are.
    const pieces = [header, user("u1"), piece("a", 0, "Hel"), piece("a", 0, "lo")];
    const store = createMemoryStore();
    const fine = await importJsonlStream(store, streamOf(pieces.join("\n"), [7]));
    expect(fine).toMatchObject({ ok: true, records: 3 });
    // Anything else under an id used before would show as one event with it: refused.
    for (const [line, message] of [
      [user("u1"), 'line 5: event.id: "u1" is already the id of the event on line 2;'],
      [piece("b", 0, "again"), 'line 5: event.id: "r1" is already the id of the event on line 3;'],
      [piece("a", 1, "again"), 'line 5: event.id: "r1" is already the id of the event on line 3;'],
      [user("r1"), 'line 5: event.id: "r1" is already the id of the event on line 3;'],
    ] as const) {
      const text = [...pieces, line].join("\n");
      const refused = await importJsonlStream(store, streamOf(text, [64]));
      expect(refused).toMatchObject({ ok: false, error: { reason: "invalid", line: 5 } });
      expect(refused.ok ? "" : refused.error.message).toContain(message);
      // The whole-file parser names the same line.
      expect(parseJsonl(text)).toMatchObject({ ok: false, error: { line: 5 } });
    }
    expect(await visible(store)).toEqual([fine.ok ? fine.meta.id : ""]);
  });

  it("refuses a file over the limit, a line over the line limit, non-UTF-8 and an empty file", async () => {
    const text = exportJsonl(sampleTranscript());
    const store = createMemoryStore();
    expect(await importJsonlStream(store, streamOf(text, [100]), { maxBytes: 1000 })).toEqual({
      ok: false,
      error: {
        reason: "too_large",
        message: "body: the file is larger than the limit of 1000 bytes.",
      },
    });
    // A line longer than the limit is refused before it ends.
    const long = `${text.split("\n")[0]}\n${"x".repeat(5000)}`;
    const tooLong = await importJsonlStream(store, streamOf(long, [64]), { maxLineBytes: 1000 });
    expect(tooLong).toMatchObject({ ok: false, error: { reason: "too_large", line: 2 } });
    const bytes = new Uint8Array([0x7b, 0xc3]);
    const binary = await importJsonlStream(
      store,
      new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
    );
    expect(binary).toEqual({
      ok: false,
      error: { reason: "invalid", message: "body: the file is not UTF-8 text." },
    });
    expect(await importJsonlStream(store, null)).toMatchObject({
      ok: false,
      error: { reason: "invalid", message: expect.stringMatching(/^body: the file is empty/) },
    });
    expect(await visible(store)).toEqual([]);
  });

  it("gives the event loop turns while it reads a big file that arrives in one piece", async () => {
    // A fast client's upload comes in pieces of megabytes; each line is validated with only
    // microtasks in between, so without turns nothing else (a proxied agent, a page) is served
    // until the whole piece is done.
    const text = exportJsonl(largeTranscript(20_000));
    const store = createMemoryStore();
    let turnsMeanwhile = 0;
    let importing = true;
    const count = () => {
      if (!importing) return;
      turnsMeanwhile++;
      setImmediate(count);
    };
    setImmediate(count);
    const result = await importJsonlStream(store, streamOf(text, [text.length * 4]));
    importing = false;
    expect(result.ok).toBe(true);
    expect(turnsMeanwhile).toBeGreaterThan(0);
  });

  it("takes a turn once a slice of work has gone by, not after every line", async () => {
    let clock = 0;
    let taken = 0;
    const turns = loopTurns(
      10,
      () => clock,
      async () => {
        taken++;
      },
    );
    for (let line = 0; line < 100; line++) {
      clock += 1;
      await turns();
    }
    expect(taken).toBe(10);
  });
});
