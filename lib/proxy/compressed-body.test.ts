/**
 * Request bodies an agent compresses (`content-encoding: gzip`, `deflate`, `br`): forwarded as
 * sent, recorded decoded; a zip bomb, a body that does not decode and a coding Wirescope does
 * not know are forwarded too and recorded with a note, never decoded without bound.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { ErrorEvent } from "../protocol/events";
import type { Transcript } from "../store/store";
import { startFakeUpstream } from "./fake-upstream.testing";
import { startProxyServer } from "./testing";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of opened.splice(0).reverse()) await server.close();
});

const ANSWER = {
  id: "chatcmpl-1",
  choices: [{ index: 0, message: { role: "assistant", content: "Done." } }],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
};
const MAX_BODY = 64 * 1024;

async function proxied() {
  const upstream = await startFakeUpstream(() => ({ json: ANSWER }));
  const proxy = await startProxyServer({
    env: { OPENAI_BASE_URL: upstream.baseURL },
    maxBodyBytes: MAX_BODY,
  });
  opened.push(upstream, proxy);
  /** Posts `body` with `content-encoding: coding`; the transcript it made. */
  const post = async (coding: string, sent: Buffer): Promise<Transcript> => {
    // fetch takes a body of its own ArrayBuffer (zlib's Buffers may share a pool).
    const body = new Uint8Array(sent);
    const response = await fetch(`${proxy.url}/proxy/openai/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": coding },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(ANSWER);
    await proxy.settled();
    const [summary] = await proxy.store.listTranscripts({ limit: 1 });
    const transcript = summary && (await proxy.store.getTranscript(summary.id));
    if (!transcript) throw new Error("the call was not recorded");
    return transcript;
  };
  return { upstream, post };
}

const chat = (content: string) =>
  Buffer.from(JSON.stringify({ model: "m", messages: [{ role: "user", content }] }));
const notes = (transcript: Transcript) =>
  transcript.records.flatMap((record) =>
    record.kind === "event" && record.event.type === "error"
      ? [(record.event as ErrorEvent).message]
      : [],
  );
const answerOf = (transcript: Transcript) =>
  transcript.records.flatMap((record) => (record.kind === "chunk" ? [record.text] : [])).join("");

describe("a compressed request body", () => {
  it("goes upstream byte for byte and is recorded decoded (gzip, deflate either way, br, stacked)", async () => {
    const { upstream, post } = await proxied();
    const codings: [string, (bytes: Buffer) => Buffer][] = [
      ["gzip", gzipSync],
      ["deflate", deflateSync],
      ["deflate", deflateRawSync],
      ["br", brotliCompressSync],
      ["deflate, gzip", (bytes) => gzipSync(deflateSync(bytes))],
    ];
    for (const [coding, compress] of codings) {
      const sent = compress(chat(`say hi in ${coding}`));
      const transcript = await post(coding, sent);
      const seen = upstream.seen.at(-1);
      expect(seen?.headers["content-encoding"]).toBe(coding);
      expect(seen?.body.equals(sent)).toBe(true);
      const request = transcript.records.find((record) => record.kind === "request");
      expect(request).toMatchObject({
        messages: [{ role: "user", content: `say hi in ${coding}` }],
      });
      expect(transcript.meta.title).toBe(`say hi in ${coding}`);
      expect(notes(transcript)).toEqual([]);
    }
  });

  it("a zip bomb is forwarded and recorded as unreadable, decoded no further than the body cap", async () => {
    const { upstream, post } = await proxied();
    // gzip members one after the other decode as one body: 48 MiB of JSON (spaces, mostly)
    // in under 64 KB, 48 × 1 KB members of 1 MiB each.
    const spaces = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat([
      gzipSync(chat("x").subarray(0, -3)),
      ...Array.from({ length: 48 }, () => spaces),
      gzipSync(Buffer.from("}]}")),
    ]);
    expect(bomb.byteLength).toBeLessThan(MAX_BODY);
    const transcript = await post("gzip", bomb);
    expect(upstream.seen.at(-1)?.body.equals(bomb)).toBe(true);
    expect(notes(transcript)).toEqual([
      `The request body could not be read for the recording: decoded (gzip) it is larger than ${MAX_BODY} bytes (WIRESCOPE_PROXY_MAX_BODY_MB). It was forwarded upstream as sent; its messages are not recorded.`,
    ]);
    const request = transcript.records.find((record) => record.kind === "request");
    expect(request).toMatchObject({ messages: [] });
    // The answer is still recorded.
    expect(answerOf(transcript)).toBe("Done.");
  });

  it("a body that does not decode, or in a coding not known, is forwarded and recorded with a note", async () => {
    const { upstream, post } = await proxied();
    const garbage = Buffer.from("this is not gzip at all");
    const broken = await post("gzip", garbage);
    expect(upstream.seen.at(-1)?.body.equals(garbage)).toBe(true);
    expect(notes(broken)).toEqual([
      expect.stringMatching(
        /^The request body could not be read for the recording: it does not decode as gzip \(/,
      ),
    ]);
    expect(answerOf(broken)).toBe("Done.");

    const unknown = await post("zstd", chat("hi"));
    expect(notes(unknown)).toEqual([
      expect.stringContaining("content-encoding zstd is not one Wirescope reads"),
    ]);
  });
});
