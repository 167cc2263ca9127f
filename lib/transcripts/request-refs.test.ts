import { describe, expect, it } from "vitest";
import type { RequestRecord } from "../protocol/records";
import { exportJsonl, parseJsonl } from "./jsonl";
import { REQUEST_WINDOW } from "./request-refs";
import { sampleTranscript } from "./testing";

const system = { role: "system", content: "s" };
const ask = (n: number) => ({ role: "user", content: `q${n}` });
const request = (turn: number, messages: unknown[]): RequestRecord => ({
  kind: "request",
  turn,
  t: 0,
  provider: "demo",
  model: "m",
  messages,
  settings: {},
});

function fileOf(records: RequestRecord[]): string {
  const { meta } = sampleTranscript();
  return exportJsonl({ meta, records: records.map((record) => ({ ...record, runId: "r" })) });
}

describe("request lines that refer to earlier requests", () => {
  it("writes only the new messages, and reads the whole list back", () => {
    const [a, b, c, d] = [system, ask(1), ask(2), { role: "user", content: "sub" }];
    const records = [
      request(0, [a, b]),
      request(1, [d]),
      request(2, [a, b, c]),
      // Shares with the first, not with the sub-agent's request just before.
      request(3, [a, c]),
    ];
    const text = fileOf(records);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[3]).toMatchObject({ messages: [c], messagesFrom: { record: 1, keep: 2 } });
    expect(lines[4]).toMatchObject({ messages: [c], messagesFrom: { record: 3, keep: 1 } });
    expect(lines[2]).not.toHaveProperty("messagesFrom");
    const parsed = parseJsonl(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.file.records.map((record) => (record as RequestRecord).messages)).toEqual(
      records.map((record) => record.messages),
    );
  });

  it("refuses a reference outside the window or longer than its request", () => {
    const records = Array.from({ length: REQUEST_WINDOW + 2 }, (_, turn) =>
      request(turn, [{ turn }]),
    );
    const lines = fileOf(records).trimEnd().split("\n");
    const far = { ...JSON.parse(lines.at(-1) ?? ""), messagesFrom: { record: 1, keep: 1 } };
    const outside = parseJsonl([...lines.slice(0, -1), JSON.stringify(far)].join("\n"));
    expect(outside).toMatchObject({
      ok: false,
      error: {
        line: lines.length,
        message: expect.stringMatching(/messagesFrom\.record: record 1 is not/),
      },
    });
    const long = { ...JSON.parse(lines[2] ?? ""), messagesFrom: { record: 1, keep: 5 } };
    const tooLong = parseJsonl([lines[0], lines[1], JSON.stringify(long)].join("\n"));
    expect(tooLong).toMatchObject({
      ok: false,
      error: {
        line: 3,
        message: expect.stringMatching(/messagesFrom\.keep: record 1 has 1 messages/),
      },
    });
  });
});
