import { brotliCompressSync, deflateRawSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeRequestBody, requestCodings } from "./request-coding";

describe("decodeRequestBody", () => {
  it("stops a zip bomb at the cap: 1 GiB in 1 MB of gzip members, decoded no further than 1 MiB", async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
    const decoded = await decodeRequestBody(bomb, ["gzip"], 1024 * 1024);
    expect(decoded).toEqual({
      ok: false,
      reason: "decoded (gzip) it is larger than 1048576 bytes (WIRESCOPE_PROXY_MAX_BODY_MB)",
    });
  });

  it("reads a body that decodes to the cap exactly, not one byte more, in each coding", async () => {
    const max = 4096;
    const compressors = { gzip: gzipSync, deflate: deflateRawSync, br: brotliCompressSync };
    for (const [coding, compress] of Object.entries(compressors)) {
      const at = await decodeRequestBody(compress(Buffer.alloc(max, 0x20)), [coding], max);
      expect(at.ok && at.body.byteLength).toBe(max);
      const over = await decodeRequestBody(compress(Buffer.alloc(max + 1, 0x20)), [coding], max);
      expect(over).toMatchObject({
        ok: false,
        reason: expect.stringContaining("larger than 4096"),
      });
    }
  });

  it("undoes stacked codings last first, and refuses more than five", async () => {
    const body = Buffer.from('{"a":1}');
    const twice = gzipSync(gzipSync(body));
    const decoded = await decodeRequestBody(twice, requestCodings("gzip, gzip"), 1024);
    expect(decoded.ok && Buffer.from(decoded.body).toString()).toBe('{"a":1}');
    expect(requestCodings("identity, deflate ,BR")).toEqual(["br", "deflate"]);
    const many = await decodeRequestBody(
      body,
      requestCodings("gzip,gzip,gzip,gzip,gzip,gzip"),
      1024,
    );
    expect(many).toEqual({ ok: false, reason: "6 stacked content codings (at most 5)" });
  });
});
