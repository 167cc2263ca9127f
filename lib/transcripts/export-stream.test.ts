import { describe, expect, it } from "vitest";
import { exportStream, jsonArrayParts } from "./export-stream";
import { MAX_INDENTED_DEPTH, prettyJson } from "./pretty-json";

const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

const nested = (depth: number, leaf: unknown = 0): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { k: [value, 1, 2] };
  return value;
};

describe("prettyJson", () => {
  it("indents small shallow values like JSON.stringify(value, null, 2)", () => {
    const value = nested(MAX_INDENTED_DEPTH / 2);
    expect(prettyJson(value)).toBe(JSON.stringify(value, null, 2));
    expect(prettyJson(undefined)).toBe("null");
  });

  it("cannot grow faster than its input: deep values stay compact", () => {
    // Before: 2 spaces per level on every line, so 4,000 levels of 8 KB became megabytes.
    const value = nested(20);
    expect(prettyJson(value)).toBe(JSON.stringify(value));
    expect(prettyJson(nested(4000))).toBe('"(nested deeper than 64 levels; not shown)"');
    for (const depth of [1, 4, 8, 9, 16, 30]) {
      const output = prettyJson(nested(depth));
      expect(output.length).toBeLessThanOrEqual(20 * JSON.stringify(nested(depth)).length);
    }
  });
});

describe("jsonArrayParts", () => {
  it.each([[[]], [[1]], [[{ a: "x\ny" }, [1, [2]], null, "s"]]])(
    "lays out %j as JSON.stringify(items, null, 2) does",
    (items) => {
      expect([...jsonArrayParts(items)].join("")).toBe(`${JSON.stringify(items, null, 2)}\n`);
    },
  );
});

describe("exportStream", () => {
  it("pulls parts only as the reader reads", async () => {
    let made = 0;
    function* parts() {
      for (;;) {
        made++;
        yield "x".repeat(1000);
      }
    }
    const reader = exportStream(parts(), { maxBytes: 1e9 }).getReader();
    await reader.read();
    await reader.read();
    expect(made).toBeLessThanOrEqual(4);
    await reader.cancel();
  });

  it("ends with the note at the ceiling, or fails when there is no note", async () => {
    const parts = () => ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
    expect(await text(exportStream(parts(), { maxBytes: 100, truncated: () => "[cut]" }))).toBe(
      `${"a".repeat(40)}${"b".repeat(40)}[cut]`,
    );
    await expect(text(exportStream(parts(), { maxBytes: 100 }))).rejects.toThrow(
      /larger than 100 bytes/,
    );
    expect(await text(exportStream(parts(), { maxBytes: 120 }))).toHaveLength(120);
  });
});
