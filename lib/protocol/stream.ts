import type { ParserOptions } from "./emitter";
import type { Dialect, ProtocolEvent } from "./events";
import { createParser } from "./parser";

/**
 * Bytes → text for streams from the network. A `§` (2 bytes) or an emoji (4 bytes) split
 * between chunks is held until its last byte arrives instead of becoming U+FFFD.
 */
export function createUtf8Decoder(): { decode(bytes: Uint8Array): string; end(): string } {
  const decoder = new TextDecoder("utf-8");
  return {
    decode: (bytes) => decoder.decode(bytes, { stream: true }),
    end: () => decoder.decode(),
  };
}

export function utf8DecoderStream(): TransformStream<Uint8Array, string> {
  const decoder = createUtf8Decoder();
  return new TransformStream({
    transform(bytes, controller) {
      const text = decoder.decode(bytes);
      if (text.length > 0) controller.enqueue(text);
    },
    flush(controller) {
      const text = decoder.end();
      if (text.length > 0) controller.enqueue(text);
    },
  });
}

/** The parser as a stream stage: text chunks in, events out, flushed at the end. */
export function parserStream(
  dialect: Dialect,
  options: ParserOptions = {},
): TransformStream<string, ProtocolEvent> {
  const parser = createParser(dialect, options);
  return new TransformStream({
    transform(chunk, controller) {
      for (const event of parser.feed(chunk)) controller.enqueue(event);
    },
    flush(controller) {
      for (const event of parser.end()) controller.enqueue(event);
    },
  });
}
