/**
 * Runs in the hermes dialect and in user-defined dialects (docs/dialects/hermes.md, docs/dialects/custom.md) through
 * `POST /api/runs` with the demo model: the wire, the results format, the stored definition
 * (header, export, replay) and the field-naming 400s for a bad definition.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import { dialectOf, type ProtocolEvent } from "@/lib/protocol";
import { REASONER_DIALECT } from "@/lib/protocol/testing";
import { replayRecords } from "@/lib/replay";
import { readConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import { headerOf } from "@/lib/transcripts/header";
import { exportJsonl, parseJsonl } from "@/lib/transcripts/jsonl";
import { POST } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-dialects-"));
});

const post = (body: unknown) =>
  POST(new Request("http://localhost/api/runs", { method: "POST", body: JSON.stringify(body) }));

async function collect(response: Response): Promise<RunStreamRecord[]> {
  if (response.body === null) throw new Error("no body");
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(response.body)) records.push(record);
  return records;
}

const eventsOf = (records: RunStreamRecord[]) =>
  records.flatMap((record): ProtocolEvent[] => (record.kind === "event" ? [record.event] : []));
const chunkText = (records: RunStreamRecord[], turn: number) =>
  records
    .map((record) => (record.kind === "chunk" && record.turn === turn ? record.text : ""))
    .join("");
const model = { provider: "demo", settings: { paceMs: 0 } };

describe("POST /api/runs in the hermes dialect", () => {
  it("calls a tool with <tool_call>, gets <tool_response> back and answers", async () => {
    const records = await collect(
      await post({ message: "list the files", dialect: "hermes", model }),
    );
    const events = eventsOf(records);
    expect(chunkText(records, 0)).toContain(
      '<tool_call>\n{"name":"list","arguments":{"path":"."}}\n</tool_call>',
    );
    expect(events.find((event) => event.type === "call")).toMatchObject({ call: { name: "list" } });
    expect(events.filter((event) => event.type === "execute")).toHaveLength(1);
    expect(events.find((event) => event.type === "result")).toMatchObject({
      payload: { status: "success" },
    });
    const second = records.find((record) => record.kind === "request" && record.turn === 1);
    const messages = second?.kind === "request" ? second.messages : [];
    const results = messages.at(-1) as { role: string; content: string };
    expect(results.role).toBe("user");
    expect(results.content).toMatch(/^<tool_response>\n\{"name":"list","content":/);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    // No end marker in hermes: the second turn has no calls, so the runtime ends the run.
    expect(events.at(-1)?.type).toBe("end");
    expect(events.filter((event) => event.type === "end")).toHaveLength(1);
  });
});

describe("POST /api/runs with a user-defined dialect", () => {
  it("speaks the definition, stores it in the header, exports and replays with it", async () => {
    const records = await collect(
      await post({ message: "list the files", dialect: REASONER_DIALECT, model }),
    );
    const events = eventsOf(records);
    expect(chunkText(records, 0)).toContain(
      '<tools>\n[\n  {"tool":"list","input":{"path":"."}}\n]\n</tools>',
    );
    expect(events.find((event) => event.type === "call")).toMatchObject({
      call: { name: "list", args: { path: "." } },
    });
    expect(chunkText(records, 1)).toContain("<answer>");
    const turn1 = records.find((record) => record.kind === "request" && record.turn === 1);
    expect(JSON.stringify(turn1)).toContain("<observations>");
    const system = records.find((record) => record.kind === "request");
    expect(JSON.stringify(system)).toContain("Protocol (reasoner):");
    expect(events.filter((event) => event.type === "error")).toEqual([]);

    const run = records[0];
    const transcriptId = run?.kind === "run" ? run.transcriptId : "";
    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    if (stored === null) throw new Error("not stored");
    expect(stored.meta.dialect).toBe("xml");
    expect(stored.meta.definition).toEqual(REASONER_DIALECT);
    const header = headerOf(stored.meta);
    expect(header.definition).toEqual(REASONER_DIALECT);
    const file = parseJsonl(exportJsonl(stored));
    expect(file.ok && file.file.header.definition).toEqual(REASONER_DIALECT);
    const replayed = replayRecords(dialectOf(stored.meta), stored.records);
    expect(replayed.diffs).toEqual([]);
    // With the built-in it would not read the same: the definition is what replay needs.
    expect(replayRecords("xml", stored.records).diffs.length).toBeGreaterThan(0);
  });

  it("continues the conversation in the same definition, and refuses another", async () => {
    const first = await collect(
      await post({ message: "list the files", dialect: REASONER_DIALECT, model }),
    );
    const transcriptId = first[0]?.kind === "run" ? first[0].transcriptId : "";
    const renamed = { ...REASONER_DIALECT, think: ["<why>", "</why>"] };
    const refused = await post({ message: "again", dialect: renamed, transcriptId, model });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toContain(
      'dialect: this conversation is in "reasoner (tags)"',
    );
    const again = await collect(
      await post({ message: "read README.md", dialect: REASONER_DIALECT, transcriptId, model }),
    );
    expect(eventsOf(again).find((event) => event.type === "call")).toMatchObject({
      call: { name: "read" },
    });
  });

  it.each([
    [{ ...REASONER_DIALECT, think: ["<reasoning>", ""] }, "dialect.think.1: must not be empty."],
    [
      { ...REASONER_DIALECT, batch: ["<reasoning>", "</tools>"] },
      "dialect.batch.0: must differ from think.0",
    ],
    [
      { ...REASONER_DIALECT, end: "<tools" },
      'dialect.end: "<tools" and batch.0 "<tools>": one is a prefix',
    ],
    [{ ...REASONER_DIALECT, family: "yaml" }, "dialect.family: must be one of"],
    [{ ...REASONER_DIALECT, fields: { name: "" } }, "dialect.fields.name: must not be empty."],
    ["yaml", "dialect: must be one of xml, delimiter, action, hermes, or a dialect definition"],
  ])("refuses a bad dialect with a 400 naming the field (%#)", async (dialect, message) => {
    const response = await post({ message: "hi", dialect, model });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(message);
  });
});
