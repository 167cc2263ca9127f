import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { waitingCount } from "./pace-clock";
import {
  estimatedUsage,
  type PacedStreamOptions,
  pacedPartReader,
  pacedStreamResult,
  pacedTextStream,
} from "./paced-stream";

const PIECES = ["<respond>", "Hello", " there", "</respond>"];

function options(paceMs: number, signal?: AbortSignal): PacedStreamOptions {
  return {
    paceMs,
    signal,
    usage: estimatedUsage("prompt", PIECES.join("")),
    name: "test model",
    response: { id: "t-0", modelId: "test" },
  };
}

async function readAll(read: () => Promise<ReadableStreamReadResult<LanguageModelV3StreamPart>>) {
  const parts: LanguageModelV3StreamPart[] = [];
  for (;;) {
    const next = await read();
    if (next.done) return parts;
    parts.push(next.value);
  }
}

describe("a paced stream", () => {
  it("gives the same parts through its direct reader as through the web stream", async () => {
    for (const paceMs of [0, 1]) {
      const viaStream = pacedTextStream(PIECES, options(paceMs)).getReader();
      const direct = pacedPartReader(pacedTextStream(PIECES, options(paceMs)));
      expect(direct).toBeDefined();
      const [streamed, read] = [
        await readAll(() => viaStream.read()),
        await readAll(() => (direct as NonNullable<typeof direct>).read()),
      ];
      expect(read).toEqual(streamed);
      expect(read.map((part) => part.type)).toEqual([
        "stream-start",
        "response-metadata",
        "text-start",
        "text-delta",
        "text-delta",
        "text-delta",
        "text-delta",
        "text-end",
        "finish",
      ]);
    }
    expect(pacedPartReader(new ReadableStream())).toBeUndefined();
  });

  it("as a doStream result: the same parts read directly or through its stream, one stream", async () => {
    const viaStream = pacedStreamResult(PIECES, options(0));
    expect(viaStream.stream).toBe(viaStream.stream);
    const reader = viaStream.stream.getReader();
    const direct = pacedPartReader(pacedStreamResult(PIECES, options(0)));
    if (direct === undefined) throw new Error("no direct reader");
    const streamed = await readAll(() => reader.read());
    expect(await readAll(() => direct.read())).toEqual(streamed);
    expect(streamed.filter((part) => part.type === "text-delta")).toHaveLength(PIECES.length);
  });

  it("ends a read pending in a pause as soon as the signal aborts, and leaves the clock", async () => {
    const controller = new AbortController();
    const reader = pacedPartReader(pacedTextStream(PIECES, options(60_000, controller.signal)));
    if (reader === undefined) throw new Error("not a paced stream");
    for (let i = 0; i < 4; i++) await reader.read(); // the opening parts and the first piece
    expect(waitingCount()).toBe(1);
    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    expect(waitingCount()).toBe(0);
  });

  it("lets go of its pause when cancelled", async () => {
    const reader = pacedPartReader(pacedTextStream(PIECES, options(60_000)));
    if (reader === undefined) throw new Error("not a paced stream");
    for (let i = 0; i < 4; i++) await reader.read();
    expect(waitingCount()).toBe(1);
    await reader.cancel();
    expect(waitingCount()).toBe(0);
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
