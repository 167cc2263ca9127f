import { describe, expect, it } from "vitest";
import { createMemoryStore } from "./memory-store";
import { SEARCH_BLOCK_MAX } from "./search-text";
import { openSqliteStore } from "./sqlite-store";
import type { Store, TranscriptRecord } from "./store";

/** A response streamed as many pieces: only its first `SEARCH_BLOCK_MAX` characters are searched. */
describe.each([
  ["memory", () => createMemoryStore()],
  ["sqlite", () => openSqliteStore({ path: ":memory:" })],
] as [string, () => Store][])("%s store: a long block's search text is bounded", (_name, open) => {
  it("finds words in the first SEARCH_BLOCK_MAX characters, not past them", async () => {
    const store = open();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "d" },
    });
    const piece = (text: string): TranscriptRecord => ({
      kind: "event",
      event: {
        type: "respond",
        id: "r1",
        timestamp: 0,
        turn: 0,
        span: { start: 0, end: 0 },
        content: text,
      },
    });
    const filler = "x".repeat(1000);
    const pieces = [piece("early-marker ")];
    for (let index = 0; index * 1000 < SEARCH_BLOCK_MAX + 10_000; index++)
      pieces.push(piece(filler));
    pieces.push(piece(" late-marker"));
    for (const record of pieces) await store.appendRecords(meta.id, "run", [record]);
    expect(await store.listTranscripts({ query: "early-marker" })).toHaveLength(1);
    expect(await store.listTranscripts({ query: "late-marker" })).toHaveLength(0);
    await store.close();
  });
});
