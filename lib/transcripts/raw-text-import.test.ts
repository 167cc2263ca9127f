import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory-store";
import type { Store } from "../store/store";
import { exportJsonl, parseJsonl } from "./jsonl";
import { importRawTextStream } from "./raw-text-import";
import { importOriginOf } from "./store-actions";

/** `bytes` as a stream cut into pieces of the given sizes, in turn (splitting characters). */
function streamOf(
  input: string | Uint8Array,
  sizes: readonly number[],
): ReadableStream<Uint8Array> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
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

const visible = async (store: Store) => (await store.listTranscripts()).map(({ id }) => id);

const HERMES =
  'Let me look.\n<think>Which files?</think>\n<tool_call>{"name": "list", "arguments": {"path": "."}}</tool_call>\n';

describe("importRawTextStream", () => {
  it("stores the text as turn 0's chunks, parsed, with the choice in the origin", async () => {
    const store = createMemoryStore();
    const text = `${"Prelude line with ✓ and 😀. ".repeat(800)}\n${HERMES}`;
    expect(text.length).toBeGreaterThan(16_384);
    // The marker sits past the detection window: the start is held, then the fallback decides.
    const result = await importRawTextStream(store, streamOf(text, [1, 4093, 7, 65_536]), {
      now: () => 1_000,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.choice).toMatchObject({ dialect: "xml", by: "fallback" });
    const transcript = await store.getTranscript(result.meta.id);
    if (transcript === null) throw new Error("not stored");
    expect(transcript.meta).toMatchObject({
      source: "import",
      dialect: "xml",
      title: "Prelude line with ✓ and 😀. Prelude line with ✓ and 😀. Prelude line with ✓ and…",
    });
    const chunks = transcript.records.flatMap((record) =>
      record.kind === "chunk" ? [record.text] : [],
    );
    expect(chunks.join("")).toBe(text);
    expect(result.records).toBe(transcript.records.length);
    expect(transcript.records[0]).toMatchObject({ kind: "request", turn: 0 });
    expect(await importOriginOf(store, result.meta.id)).toMatchObject({
      originalId: "",
      format: "text",
      dialect: { dialect: "xml", by: "fallback" },
    });
    expect(await visible(store)).toEqual([result.meta.id]);
  });

  it("detects a marker whose bytes arrive one at a time, and keeps the given title", async () => {
    const store = createMemoryStore();
    const result = await importRawTextStream(store, streamOf(HERMES, [1]), {
      title: "agent.log",
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.choice).toMatchObject({ dialect: "hermes", by: "detected" });
    const transcript = await store.getTranscript(result.meta.id);
    expect(transcript?.meta).toMatchObject({ title: "agent.log", dialect: "hermes" });
    const calls = transcript?.records.filter(
      (record) => record.kind === "event" && record.event.type === "call",
    );
    expect(calls).toHaveLength(1);
  });

  it("refuses a text over the byte limit and leaves nothing visible", async () => {
    const store = createMemoryStore();
    const result = await importRawTextStream(store, streamOf("é".repeat(20_000), [999]), {
      maxBytes: 30_000,
    });
    expect(result).toMatchObject({ ok: false, error: { reason: "too_large" } });
    expect(await visible(store)).toEqual([]);
  });

  it("refuses bytes that are not UTF-8, even past the detection window", async () => {
    const store = createMemoryStore({ newId: () => "refused" });
    const good = new TextEncoder().encode("<tool_call>".padEnd(40_000, "x"));
    const bad = new Uint8Array([...good, 0xff, 0x41]);
    const result = await importRawTextStream(store, streamOf(bad, [4096]));
    expect(result).toEqual({
      ok: false,
      error: { reason: "invalid", message: "body: the text is not valid UTF-8." },
    });
    expect(await visible(store)).toEqual([]);
    // Nor kept hidden: what it wrote past the detection window is gone with it.
    expect(await store.restoreTranscript("refused")).toBe(false);
  });

  it("refuses an empty or blank text", async () => {
    const store = createMemoryStore();
    for (const text of ["", " \n\t\n", " ".repeat(40_000)])
      expect(await importRawTextStream(store, streamOf(text, [3]))).toEqual({
        ok: false,
        error: { reason: "invalid", message: "body: the text is empty." },
      });
    expect(await importRawTextStream(store, null)).toMatchObject({ ok: false });
    expect(await visible(store)).toEqual([]);
  });

  it("uses a named dialect and the import exports as a valid transcript file", async () => {
    const store = createMemoryStore();
    const result = await importRawTextStream(store, streamOf(HERMES, [10]), { dialect: "xml" });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.choice).toEqual({ dialect: "xml", by: "query", reason: "named by ?dialect=" });
    const transcript = await store.getTranscript(result.meta.id);
    if (transcript === null) throw new Error("not stored");
    const parsed = parseJsonl(exportJsonl(transcript));
    expect(parsed.ok).toBe(true);
  });

  it("passes the header and every record through the cleaner (the route redacts keys there)", async () => {
    const store = createMemoryStore();
    const hide = (text: string) => text.replaceAll("sk-planted", "[redacted]");
    const result = await importRawTextStream(store, streamOf(`sk-planted title\n${HERMES}`, [5]), {
      clean: {
        header: (header) => ({ ...header, title: hide(header.title) }),
        record: (record) => JSON.parse(hide(JSON.stringify(record))),
      },
    });
    if (!result.ok) throw new Error(result.error.message);
    const transcript = await store.getTranscript(result.meta.id);
    expect(transcript?.meta.title).toBe("[redacted] title");
    expect(JSON.stringify(transcript?.records)).not.toContain("sk-planted");
  });

  it("parses a piece of megabytes a slice at a time, giving the event loop turns", async () => {
    const text = HERMES.repeat(20_000);
    let turnsMeanwhile = 0;
    let importing = true;
    const count = () => {
      if (!importing) return;
      turnsMeanwhile++;
      setImmediate(count);
    };
    setImmediate(count);
    const store = createMemoryStore();
    const result = await importRawTextStream(store, streamOf(text, [text.length * 4]));
    importing = false;
    expect(result.ok).toBe(true);
    expect(turnsMeanwhile).toBeGreaterThan(0);
  });

  it("redacts the title's text before cutting it: a key cut first is not the key", async () => {
    const store = createMemoryStore();
    const key = `custom${"qwertyuiopasdfghjklzxcvbnm".repeat(4)}`;
    const hide = (text: string) => text.replaceAll(key, "[redacted]");
    const result = await importRawTextStream(store, streamOf(`${key} rejected\n${HERMES}`, [7]), {
      clean: {
        header: (header) => ({ ...header, title: hide(header.title) }),
        record: (record) => JSON.parse(hide(JSON.stringify(record))),
        text: hide,
      },
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.meta.title).toBe("[redacted] rejected");
  });
});
