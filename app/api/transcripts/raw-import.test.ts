import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Transcript, TranscriptSummary } from "@/lib/store";
import { GET as exportTranscript } from "./[id]/export/route";
import { GET as getOne } from "./[id]/route";
import { POST as importFile } from "./import/route";
import { GET as list } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-raw-import-"));
});

const url = (path: string) => `http://localhost/api/transcripts${path}`;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const send = (query: string, body: BodyInit) =>
  importFile(new Request(url(`/import${query}`), { method: "POST", body }));
const transcriptOf = async (id: string) =>
  (await (await getOne(new Request(url(`/${id}`)), params(id))).json()) as Transcript & {
    importedFrom?: unknown;
  };
const count = async () =>
  ((await (await list(new Request(url("")))).json()) as { transcripts: TranscriptSummary[] })
    .transcripts.length;

const HERMES =
  'agent run 42\n<think>Which files?</think>\n<tool_call>{"name": "list", "arguments": {"path": "."}}</tool_call>\n';

interface Imported {
  transcript: { id: string; title: string; dialect: string; source: string };
  importedFrom: { format: string; dialect: unknown };
  records: number;
  dialect: { dialect: string; by: string; reason: string };
}

describe("POST /api/transcripts/import?format=text", () => {
  it("imports raw hermes text as one parsed model turn, and it exports and re-imports", async () => {
    const response = await send("?format=text", HERMES);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Imported;
    expect(body.dialect).toEqual({
      dialect: "hermes",
      by: "detected",
      reason: "<tool_call> at offset 41 is a hermes marker",
    });
    expect(body.transcript).toMatchObject({
      title: "agent run 42",
      dialect: "hermes",
      source: "import",
    });
    expect(body.importedFrom).toMatchObject({ format: "text", dialect: body.dialect });
    const stored = await transcriptOf(body.transcript.id);
    expect(stored.importedFrom).toMatchObject({ format: "text" });
    expect(stored.records.length).toBe(body.records);
    expect(
      stored.records.flatMap((record) => (record.kind === "chunk" ? [record.text] : [])).join(""),
    ).toBe(HERMES);
    const call = stored.records.find(
      (record) => record.kind === "event" && record.event.type === "call",
    );
    expect(call).toMatchObject({ event: { call: { name: "list", args: { path: "." } } } });

    const file = await (
      await exportTranscript(
        new Request(url(`/${body.transcript.id}/export`)),
        params(body.transcript.id),
      )
    ).text();
    const again = await send("", file);
    expect(again.status).toBe(201);
  });

  it("uses ?dialect= and takes the title from a multipart file's name", async () => {
    const form = new FormData();
    form.set("file", new Blob([HERMES], { type: "text/plain" }), "agent.log");
    const response = await send("?format=text&dialect=xml", form);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Imported;
    expect(body.dialect).toMatchObject({ dialect: "xml", by: "query" });
    expect(body.transcript).toMatchObject({ title: "agent.log", dialect: "xml" });
    const titled = (await (
      await send("?format=text&title=from%20the%20page", "plain words")
    ).json()) as Imported;
    expect(titled.transcript.title).toBe("from the page");
    expect(titled.dialect.by).toBe("fallback");
  });

  it("keeps a transcript file strict: a bad first line is refused, never read as text", async () => {
    const before = await count();
    const response = await send("", HERMES);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(/^line 1: /),
      line: 1,
      hint: "To import a model's raw text, add ?format=text.",
    });
    const explicit = await send("?format=jsonl", HERMES);
    expect(explicit.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("refuses bad parameters, bad UTF-8, empty text and a text over the limit", async () => {
    const refused = async (query: string, body: BodyInit, status: number, error: RegExp) => {
      const response = await send(query, body);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: string }).error).toMatch(error);
    };
    await refused("?dialect=hermes", HERMES, 400, /^dialect: only with format=text/);
    await refused("?format=csv", HERMES, 400, /^format: /);
    await refused("?format=text&dialect=klingon", HERMES, 400, /^dialect: /);
    await refused("?format=text&colour=red", HERMES, 400, /unknown parameter "colour"/);
    // Which of the two was meant cannot be told: refused, not read as the last.
    await refused("?format=jsonl&format=text", HERMES, 400, /^format: given more than once/);
    await refused(
      "?format=text",
      new Uint8Array([0x3c, 0xff, 0xfe]),
      400,
      /^body: the text is not valid UTF-8\.$/,
    );
    await refused("?format=text", "  \n", 400, /^body: the text is empty\.$/);
    process.env.WIRESCOPE_IMPORT_MAX_MB = "0.001";
    try {
      await refused("?format=text", "x".repeat(2000), 413, /larger than the limit/);
    } finally {
      delete process.env.WIRESCOPE_IMPORT_MAX_MB;
    }
  });
});
