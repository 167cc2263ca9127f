import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "./read";
import { createTempWorkspace, runTool, type TempWorkspace } from "./testing";
import { BINARY_SNIFF_BYTES } from "./text";
import { ToolFailure } from "./tool";

const NOTES = "# Notes\nfirst\nsecond\nthird\n";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace({ maxReadBytes: 32 });
  await temp.put({ "notes.md": NOTES });
});
afterEach(() => temp.cleanup());

const read = (args: Record<string, unknown>) => runTool(readTool, args, temp.context);

describe("read", () => {
  it("returns the whole file", async () => {
    expect(await read({ file: "notes.md" })).toEqual({
      content: NOTES,
      outcome: "Read 4 lines from notes.md",
    });
  });

  it("returns a line range, inclusive, and clamps the end to the file", async () => {
    expect(await read({ file: "notes.md", start: 2, end: 3 })).toEqual({
      content: "first\nsecond\n",
      outcome: "Read lines 2–3 from notes.md",
    });
    expect((await read({ file: "notes.md", start: 4, end: 99 })).content).toBe("third\n");
  });

  // Shorter than the binary sniff, a file is read whole by it; longer, it is streamed.
  it.each([-1, 0, 1, 20])(
    "reads a file of the sniff's size %+d bytes whole and by range",
    async (extra) => {
      const wide = await createTempWorkspace();
      try {
        const size = BINARY_SNIFF_BYTES + extra;
        const line = "0123456789abcdefghi\n"; // 20 bytes
        const text = line.repeat(Math.floor(size / 20)) + "x".repeat(size % 20);
        await wide.put({ "wide.txt": text });
        const whole = await runTool(readTool, { file: "wide.txt" }, wide.context);
        expect(whole.content).toBe(text);
        const last = Math.ceil(size / 20);
        const tail = await runTool(readTool, { file: "wide.txt", start: last - 1 }, wide.context);
        expect(tail.content).toBe(text.slice((last - 2) * 20));
      } finally {
        await wide.cleanup();
      }
    },
  );

  it("keeps CRLF line endings so `edit` can match what was read", async () => {
    await temp.put({ "dos.txt": "a\r\nb\r\n" });
    expect((await read({ file: "dos.txt" })).content).toBe("a\r\nb\r\n");
  });

  it("truncates past the cap with a marker saying where to read on", async () => {
    await temp.put({ "long.txt": "0123456789\n".repeat(5) });
    const output = await read({ file: "long.txt" });
    expect(output.content).toBe(
      `${"0123456789\n".repeat(2)}0123456789\n[truncated at 32 B; read on with {"file":"long.txt","start":3}]`,
    );
    expect(output.outcome).toBe("Read 3 lines from long.txt, truncated at 32 B");
  });

  it("never cuts a character in half at the cap", async () => {
    await temp.put({ "emoji.txt": "é".repeat(40) });
    const output = await read({ file: "emoji.txt" });
    expect(output.content).toMatch(/^é{16}\n\[truncated/);
  });

  it.each([
    [{ file: "missing.md" }, '"missing.md" does not exist; use `list` to see what is there.'],
    [{ file: "notes.md", start: 9 }, '"notes.md" has only 4 lines.'],
    [{ file: "notes.md", start: 3, end: 2 }, '"start" (3) is after "end" (2); swap them.'],
    [{ file: "." }, '"." is a directory, not a file; use `list` to see inside it.'],
  ])("fails clearly for %j", async (args, message) => {
    const attempt = read(args);
    await expect(attempt).rejects.toBeInstanceOf(ToolFailure);
    await expect(attempt).rejects.toThrow(message);
  });

  it("refuses binary files", async () => {
    await temp.put({ "image.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]) });
    await expect(read({ file: "image.png" })).rejects.toThrow(
      '"image.png" looks like a binary file; `read` only shows text.',
    );
  });

  it("stops when the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const context = { ...temp.context, signal: controller.signal };
    await expect(runTool(readTool, { file: "notes.md" }, context)).rejects.toThrow(/abort/i);
  });
});
