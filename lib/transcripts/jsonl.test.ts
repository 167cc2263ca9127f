import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../protocol/events";
import { fileRecordOf, headerOf } from "./header";
import { exceedsUtf8, exportJsonl, parseJsonl } from "./jsonl";
import { sampleTranscript } from "./testing";

const transcript = sampleTranscript();
const text = exportJsonl(transcript);
const lines = text.trimEnd().split("\n");

/** The exported text with line `number` (1-based) replaced. */
function withLine(number: number, line: string): string {
  const copy = [...lines];
  copy[number - 1] = line;
  return `${copy.join("\n")}\n`;
}

const recordLine = (number: number) => JSON.parse(lines[number - 1] ?? "{}");

describe("exportJsonl → parseJsonl", () => {
  it("gives back the same transcript: header, every record, every event type, unicode", () => {
    const types = new Set(
      transcript.records.flatMap((record) => (record.kind === "event" ? [record.event.type] : [])),
    );
    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
    const parsed = parseJsonl(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.file.header).toEqual(headerOf(transcript.meta));
    expect(parsed.file.records).toEqual(transcript.records.map(fileRecordOf));
    expect(exportJsonl({ meta: transcript.meta, records: parsed.file.records })).toBe(text);
  });

  it("writes a header line, then one record a line with its run and no seq", () => {
    expect(lines).toHaveLength(transcript.records.length + 1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      format: "wirescope-transcript",
      version: 1,
      id: "sample-1",
      parentId: "origin-0",
      forkPoint: 7,
    });
    expect(recordLine(2)).toEqual({ kind: "event", event: expect.anything(), runId: "run-1" });
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("keeps a metric's prompt-cache counts, and refuses one that is not a count", () => {
    const at = lines.findIndex((line) => line.includes('"type":"metric"')) + 1;
    const record = recordLine(at);
    const withCache = (cacheRead: unknown) =>
      withLine(
        at,
        JSON.stringify({
          ...record,
          event: { ...record.event, step: { ...record.event.step, cacheRead, cacheWrite: 2 } },
        }),
      );
    const parsed = parseJsonl(withCache(5));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const metric = parsed.file.records.find(
      (item) => item.kind === "event" && item.event.type === "metric",
    );
    expect(metric).toMatchObject({ event: { step: { cacheRead: 5, cacheWrite: 2 } } });
    expect(parseJsonl(withCache(-1))).toMatchObject({
      ok: false,
      error: { line: at, message: expect.stringContaining("event.step.cacheRead") },
    });
    // More cached than the input, or counts that are not believable tokens: refused by field.
    expect(parseJsonl(withCache(record.event.step.input + 1))).toMatchObject({
      ok: false,
      error: { line: at, message: expect.stringContaining("event.step.cacheRead") },
    });
    // The 1-hour writes are a part of cacheWrite: more of them than that is refused too.
    const withHour = (cacheWrite1h: number) =>
      withLine(
        at,
        JSON.stringify({
          ...record,
          event: {
            ...record.event,
            step: { ...record.event.step, cacheRead: 0, cacheWrite: 2, cacheWrite1h },
          },
        }),
      );
    expect(parseJsonl(withHour(2)).ok).toBe(true);
    expect(parseJsonl(withHour(3))).toMatchObject({
      ok: false,
      error: { line: at, message: expect.stringContaining("event.step.cacheWrite1h") },
    });
    for (const input of [-1000, 1e308, 2.5]) {
      const bad = withLine(
        at,
        JSON.stringify({
          ...record,
          event: { ...record.event, step: { ...record.event.step, input } },
        }),
      );
      expect(parseJsonl(bad)).toMatchObject({
        ok: false,
        error: { line: at, message: expect.stringContaining("event.step.input") },
      });
    }
  });

  it("accepts CRLF line ends, a byte-order mark and blank lines", () => {
    const crlf = `\uFEFF${lines.join("\r\n\r\n")}\r\n`;
    const parsed = parseJsonl(crlf);
    expect(parsed.ok && parsed.file.records).toEqual(transcript.records.map(fileRecordOf));
  });
});

describe("parseJsonl refuses a bad file, naming the first bad line", () => {
  const bad = (input: string) => {
    const parsed = parseJsonl(input);
    if (parsed.ok) throw new Error("expected a refusal");
    return parsed.error;
  };

  it.each([
    [
      "an unknown event type",
      () =>
        withLine(
          7,
          JSON.stringify({ kind: "event", event: { ...recordLine(7).event, type: "thought" } }),
        ),
      'line 7: event.type: Invalid option: expected one of "user"|"think"|',
    ],
    ["broken JSON", () => withLine(4, '{"kind":"chunk",'), "line 4: not valid JSON ("],
    [
      "an unknown record kind",
      () => withLine(3, '{"kind":"note","text":"hi"}'),
      'line 3: kind: Invalid option: expected one of "event"|"chunk"|"request"',
    ],
    [
      "a missing field",
      () => withLine(4, '{"kind":"chunk","turn":0,"text":"x"}'),
      "line 4: t: Invalid input: expected number",
    ],
    [
      "an unknown field",
      () => withLine(4, '{"kind":"chunk","turn":0,"t":1,"text":"x","colour":"red"}'),
      'line 4: record: unknown field "colour"',
    ],
    [
      "a negative turn",
      () => withLine(4, '{"kind":"chunk","turn":-1,"t":1,"text":"x"}'),
      "line 4: turn: Too small",
    ],
    [
      "a bad error code deep inside",
      () => {
        const record = recordLine(11);
        return withLine(
          11,
          JSON.stringify({ ...record, event: { ...record.event, code: "oops" } }),
        );
      },
      "line 11: event.code: Invalid option",
    ],
    [
      "a bad call",
      () => {
        const record = recordLine(8);
        return withLine(
          8,
          JSON.stringify({ ...record, event: { ...record.event, call: { id: "c1" } } }),
        );
      },
      "line 8: event.call.name: Invalid input: expected string",
    ],
    [
      "a record where the header should be",
      () => lines.slice(1).join("\n"),
      'line 1: format: expected "wirescope-transcript"',
    ],
    [
      "a newer version",
      () => withLine(1, JSON.stringify({ ...JSON.parse(lines[0] ?? ""), version: 2 })),
      "line 1: version: this file is version 2; this build reads version 1",
    ],
    [
      "a header without a dialect",
      () => withLine(1, JSON.stringify({ ...JSON.parse(lines[0] ?? ""), dialect: undefined })),
      "line 1: dialect: Invalid option",
    ],
    [
      "a definition beside a dialect not of its family",
      () =>
        withLine(
          1,
          JSON.stringify({
            ...JSON.parse(lines[0] ?? ""),
            dialect: "action",
            definition: {
              name: "reasoning-tags",
              family: "tags",
              think: ["<reasoning>", "</reasoning>"],
              batch: ["<tools>", "</tools>"],
              results: ["<tool_results>", "</tool_results>"],
            },
          }),
        ),
      'line 1: dialect: "action" does not go with definition "reasoning-tags" (family tags); its transcripts name "xml"',
    ],
    ["an empty file", () => "\n\n", "body: the file is empty"],
  ])("%s", (_name, input, message) => {
    const error = bad(input());
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.reason).toBe("invalid");
  });

  it("reports the first bad line when there are several", () => {
    const input = withLine(9, "nope").replace(lines[4] ?? "", "{}");
    expect(bad(input).line).toBe(5);
  });

  it("counts skipped blank lines in line numbers", () => {
    const input = `${lines.slice(0, 2).join("\n")}\n\n\n{"kind":"x"}\n`;
    expect(bad(input)).toMatchObject({ line: 5 });
  });

  it("refuses a file over the size limit before reading any line", () => {
    const error = bad(text.replace(lines[0] ?? "", "not even a header"));
    expect(error.line).toBe(1);
    const large = parseJsonl(text, { maxBytes: text.length - 10 });
    expect(large).toEqual({
      ok: false,
      error: { reason: "too_large", message: expect.stringMatching(/larger than the limit/) },
    });
  });

  it("counts the size in UTF-8 bytes, not characters", () => {
    const emoji = "🧐".repeat(10); // 20 UTF-16 units, 40 bytes
    expect(exceedsUtf8(emoji, 40)).toBe(false);
    expect(exceedsUtf8(emoji, 39)).toBe(true);
    expect(exceedsUtf8("é".repeat(10), 19)).toBe(true);
    expect(exceedsUtf8("\uD800x", 4)).toBe(false);
  });

  it("refuses a line over the line limit with its number", () => {
    const long = withLine(
      4,
      JSON.stringify({ kind: "chunk", turn: 0, t: 1, text: "x".repeat(5000) }),
    );
    expect(parseJsonl(long, { maxLineBytes: 4096 })).toEqual({
      ok: false,
      error: { reason: "too_large", line: 4, message: expect.stringMatching(/^line 4: is longer/) },
    });
  });
});
