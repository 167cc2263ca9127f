import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "./events";
import { parseAll } from "./parser";
import { createUtf8Decoder, parserStream, utf8DecoderStream } from "./stream";
import { canonical } from "./testing";

const encoder = new TextEncoder();

/** `text` encoded and cut into byte chunks at the given byte offsets. */
function bytesCutAt(text: string, cuts: readonly number[]): Uint8Array[] {
  const bytes = encoder.encode(text);
  const points = [0, ...cuts, bytes.length];
  return points.slice(1).map((end, i) => bytes.slice(points[i], end));
}

function decodeAll(chunks: readonly Uint8Array[]): { pieces: string[]; text: string } {
  const decoder = createUtf8Decoder();
  const pieces = [...chunks.map((chunk) => decoder.decode(chunk)), decoder.end()];
  return { pieces, text: pieces.join("") };
}

function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe("createUtf8Decoder", () => {
  // § is 2 bytes, 中 is 3, 😀 is 4: every cut inside one of them must be held back.
  const samples = ["§think: x", "a中b", "hi 😀!"];

  it.each(samples)("decodes %j split at every byte boundary without U+FFFD", (text) => {
    const length = encoder.encode(text).length;
    for (let cut = 1; cut < length; cut++) {
      const { pieces, text: decoded } = decodeAll(bytesCutAt(text, [cut]));
      expect(decoded, `cut at byte ${cut}`).toBe(text);
      for (const piece of pieces) expect(piece).not.toContain("\uFFFD");
    }
  });

  it.each(samples)("decodes %j fed one byte at a time", (text) => {
    const length = encoder.encode(text).length;
    const cuts = Array.from({ length: length - 1 }, (_, i) => i + 1);
    const { pieces, text: decoded } = decodeAll(bytesCutAt(text, cuts));
    expect(decoded).toBe(text);
    expect(pieces.join("")).not.toContain("\uFFFD");
  });

  it("still reports a truly broken sequence at the end as U+FFFD", () => {
    // A lone lead byte with nothing after it is bad input, not a split character.
    const { text } = decodeAll([new Uint8Array([0x61, 0xf0, 0x9f])]);
    expect(text).toBe("a\uFFFD");
  });
});

describe("parserStream", () => {
  const text =
    '<think>Plan 😀: list 中文 files</think>\n<execute>[{"name": "ls", "args": {"dir": "§docs"}}]</execute>\nDone <';

  it("gives the same merged events as parseAll for text chunks", async () => {
    const chunks = ["<thi", "nk>Plan \ud83d", "\ude00: list 中文 files</th", "ink>\n<exe"];
    chunks.push(text.slice(chunks.join("").length));
    expect(chunks.join("")).toBe(text);
    const events = await collect(streamOf(chunks).pipeThrough(parserStream("xml")));
    expect(canonical(events)).toEqual(canonical(parseAll("xml", text)));
  });

  it("behind utf8DecoderStream, bytes split inside characters give the same events", async () => {
    const bytes = encoder.encode(text);
    const cuts = Array.from({ length: Math.floor(bytes.length / 3) }, (_, i) => i * 3 + 1);
    const events: ProtocolEvent[] = await collect(
      streamOf(bytesCutAt(text, cuts))
        .pipeThrough(utf8DecoderStream())
        .pipeThrough(parserStream("xml")),
    );
    expect(canonical(events)).toEqual(canonical(parseAll("xml", text)));
    expect(JSON.stringify(events)).not.toContain("\uFFFD");
  });
});
