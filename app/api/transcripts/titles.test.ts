import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRunStream } from "@/lib/client/run-stream";
import type { TranscriptMeta, TranscriptSummary } from "@/lib/store";
import { POST as startRun } from "../runs/route";
import { GET as exportTranscript } from "./[id]/export/route";
import { POST as fork } from "./[id]/fork/route";
import { GET as getOne, PATCH as rename } from "./[id]/route";
import { POST as importFile } from "./import/route";
import { GET as list } from "./route";

const KEY = "sk-planted-title-key-0123456789abcdef";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-titles-"));
  process.env.OPENAI_API_KEY = KEY;
});

const url = (path: string) => `http://localhost/api/transcripts${path}`;
const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function newTranscript(message: string): Promise<string> {
  const body = { dialect: "xml", message, model: { provider: "demo", settings: { paceMs: 0 } } };
  const response = await startRun(
    new Request("http://localhost/api/runs", { method: "POST", body: JSON.stringify(body) }),
  );
  if (response.body === null) throw new Error(`no body: ${response.status}`);
  let id = "";
  for await (const record of readRunStream(response.body))
    if (record.kind === "run") id = record.transcriptId;
  return id;
}

const metaOf = async (id: string) =>
  (
    (await (await getOne(new Request(url(`/${id}`)), params(id))).json()) as {
      meta: TranscriptMeta;
    }
  ).meta;
const listed = async (query: string) =>
  (
    (await (await list(new Request(url(`?query=${encodeURIComponent(query)}`)))).json()) as {
      transcripts: TranscriptSummary[];
    }
  ).transcripts;
const patch = (id: string, title: string) =>
  rename(
    new Request(url(`/${id}`), { method: "PATCH", body: JSON.stringify({ title }) }),
    params(id),
  );

describe("configured keys in titles", () => {
  it("keeps a key typed in the message out of the title, the list, search and file names", async () => {
    const id = await newTranscript(`use ${KEY} to list the files, a long message past the cut`);
    const meta = await metaOf(id);
    expect(meta.title).not.toContain(KEY.slice(0, 12));
    expect(meta.title).toMatch(/^use \[redacted\] to list/);
    expect(JSON.stringify(await listed(""))).not.toContain(KEY.slice(0, 12));
    expect(await listed(KEY)).toEqual([]);
    const exported = await exportTranscript(
      new Request(url(`/${id}/export?format=markdown`)),
      params(id),
    );
    expect(exported.headers.get("content-disposition")).not.toContain(KEY.slice(0, 12));
    const file = await (
      await exportTranscript(new Request(url(`/${id}/export`)), params(id))
    ).text();
    expect(file).not.toContain(KEY);
  });

  it("redacts a key in a renamed title and in an imported file", async () => {
    const id = await newTranscript("calculate 6 * 7");
    expect((await patch(id, `my key ${KEY}`)).status).toBe(200);
    expect((await metaOf(id)).title).toBe("my key [redacted]");
    const file = (
      await (await exportTranscript(new Request(url(`/${id}/export`)), params(id))).text()
    ).replace("calculate 6 * 7", `calculate with ${KEY}`);
    const response = await importFile(new Request(url("/import"), { method: "POST", body: file }));
    expect(response.status).toBe(201);
    const { transcript } = (await response.json()) as { transcript: TranscriptMeta };
    const imported = await (
      await getOne(new Request(url(`/${transcript.id}`)), params(transcript.id))
    ).text();
    expect(imported).not.toContain(KEY);
  });

  it("masks the value of a credential-named field in an imported record, which no text pattern sees", async () => {
    const id = await newTranscript("calculate 6 * 7");
    const planted = "zz11yy22xx33ww44vv55";
    const lines = (
      await (await exportTranscript(new Request(url(`/${id}/export`)), params(id))).text()
    ).split("\n");
    const at = lines.findIndex((line) => line.includes('"type":"call"'));
    const record = JSON.parse(lines[at] as string);
    record.event.call.args = { ...record.event.call.args, api_key: planted };
    lines[at] = JSON.stringify(record);
    const response = await importFile(
      new Request(url("/import"), { method: "POST", body: lines.join("\n") }),
    );
    expect(response.status).toBe(201);
    const { transcript } = (await response.json()) as { transcript: TranscriptMeta };
    const imported = await (
      await getOne(new Request(url(`/${transcript.id}`)), params(transcript.id))
    ).text();
    expect(imported).not.toContain(planted);
    // Masked in place, its length kept.
    expect(imported).toContain(`"api_key":"[redacted${"*".repeat(planted.length - 10)}]"`);
  });

  it("redacts a key in an imported file's system prompt", async () => {
    const id = await newTranscript("calculate 2 + 2");
    const [header = "", ...records] = (
      await (await exportTranscript(new Request(url(`/${id}/export`)), params(id))).text()
    ).split("\n");
    const planted = { ...JSON.parse(header), system: `Use the key ${KEY} for every call.` };
    const file = [JSON.stringify(planted), ...records].join("\n");
    const response = await importFile(new Request(url("/import"), { method: "POST", body: file }));
    expect(response.status).toBe(201);
    const answer = await response.text();
    expect(answer).not.toContain(KEY);
    const { transcript } = JSON.parse(answer) as { transcript: TranscriptMeta };
    expect(transcript.system).toBe("Use the key [redacted] for every call.");
    const exported = await (
      await exportTranscript(new Request(url(`/${transcript.id}/export`)), params(transcript.id))
    ).text();
    expect(exported).not.toContain(KEY);
  });
});

describe("keys typed into a playground run", () => {
  it("never reach a record, the stored system prompt, an export or the answer", async () => {
    const shaped = "sk-abcdefghijklmnopqrstuvwxyz012345";
    const body = {
      dialect: "xml",
      message: `calculate 2 + 2, my keys are ${KEY} and token_${shaped}`,
      system: `Answer briefly. The key is ${KEY}; the other ${shaped}.`,
      model: { provider: "demo", settings: { paceMs: 0 } },
    };
    const response = await startRun(
      new Request("http://localhost/api/runs", { method: "POST", body: JSON.stringify(body) }),
    );
    const streamed = await response.text();
    const id = /"transcriptId":"([^"]+)"/.exec(streamed)?.[1] ?? "";
    const stored = await (await getOne(new Request(url(`/${id}`)), params(id))).text();
    const exported = await (
      await exportTranscript(new Request(url(`/${id}/export`)), params(id))
    ).text();
    for (const text of [streamed, stored, exported]) {
      expect(text).not.toContain(KEY.slice(0, 12));
      expect(text).not.toContain(shaped);
    }
    const meta = await metaOf(id);
    expect(meta.system).toBe("Answer briefly. The key is [redacted]; the other [redacted].");
    expect(stored).toContain("my keys are [redacted] and token_[redacted]");
  });
});

describe("keys typed into a fork", () => {
  it("are not copied into the fork's mocked result nor its message to continue with", async () => {
    const shaped = "sk-abcdefghijklmnopqrstuvwxyz012345";
    const id = await newTranscript("list the files");
    const stored = JSON.parse(await (await getOne(new Request(url(`/${id}`)), params(id))).text())
      .records as { seq: number; kind: string; event?: { type: string; callId?: string } }[];
    const result = stored.find((record) => record.event?.type === "result");
    const forkAt = async (body: unknown) =>
      fork(
        new Request(url(`/${id}/fork`), { method: "POST", body: JSON.stringify(body) }),
        params(id),
      );
    const mocked = await forkAt({
      at: result?.seq,
      editResult: { callId: result?.event?.callId, content: { note: `key ${shaped}`, key: KEY } },
    });
    expect(mocked.status).toBe(201);
    const { transcript } = (await mocked.json()) as { transcript: TranscriptMeta };
    const forked = await (
      await getOne(new Request(url(`/${transcript.id}`)), params(transcript.id))
    ).text();
    expect(forked).toContain("key [redacted]");
    expect(forked).not.toContain(shaped);
    expect(forked).not.toContain(KEY);
    const edited = await forkAt({ at: 1, editUserMessage: `now with ${shaped}` });
    const answer = await edited.text();
    expect(answer).toContain("now with [redacted]");
    expect(answer).not.toContain(shaped);
  });
});

describe("key-shaped values in an imported file", () => {
  it("are masked in every record at their own length, so the events' spans still point right", async () => {
    const shaped = "sk-abcdefghijklmnopqrstuvwxyz012345";
    const id = await newTranscript("calculate 6 * 7");
    const file = (
      await (await exportTranscript(new Request(url(`/${id}/export`)), params(id))).text()
    ).replaceAll("6 * 7", `6 * 7 ${shaped}`);
    expect(file).toContain(shaped);
    const response = await importFile(new Request(url("/import"), { method: "POST", body: file }));
    expect(response.status).toBe(201);
    const { transcript } = (await response.json()) as { transcript: TranscriptMeta };
    const stored = await (
      await getOne(new Request(url(`/${transcript.id}`)), params(transcript.id))
    ).text();
    expect(stored).not.toContain(shaped);
    expect(stored).toContain(`6 * 7 [redacted${"*".repeat(shaped.length - 10)}]`);
    // Each event's span still covers the same text of its turn's chunks.
    const { records } = JSON.parse(stored) as {
      records: {
        kind: string;
        turn?: number;
        text?: string;
        event?: { span?: { start: number; end: number }; turn?: number; type: string };
      }[];
    };
    const turnText = new Map<number, string>();
    for (const record of records)
      if (record.kind === "chunk" && record.turn !== undefined)
        turnText.set(record.turn, (turnText.get(record.turn) ?? "") + (record.text ?? ""));
    const spanned = records.filter((record) => record.event?.span !== undefined);
    expect(spanned.length).toBeGreaterThan(0);
    for (const record of spanned) {
      const { start, end } = record.event?.span ?? { start: 0, end: 0 };
      const text = turnText.get(record.event?.turn ?? -1) ?? "";
      expect(end).toBeLessThanOrEqual(text.length);
      expect(start).toBeLessThanOrEqual(end);
    }
    const think = records.find((record) => record.event?.type === "think");
    if (think?.event?.span !== undefined) {
      const text = turnText.get(think.event.turn ?? -1) ?? "";
      expect(text.slice(think.event.span.start, think.event.span.start + 7)).toBe("<think>");
    }
  });
});

describe("title normalization", () => {
  it("refuses a zero-width-only title with a 400 and normalizes NUL and lone surrogates", async () => {
    const id = await newTranscript("calculate 1 + 1");
    const refused = await patch(id, "\u200b\u200d\ufeff");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "title: must not be empty." });
    expect((await patch(id, "a\u0000b \ud800 c")).status).toBe(200);
    expect((await metaOf(id)).title).toBe("a b \ufffd c");
  });

  it("gives a zero-width-only message the default title", async () => {
    const id = await newTranscript("\u200b\u200b list the files");
    expect((await metaOf(id)).title).toBe("list the files");
    const blank = await newTranscript("\u200b\u200c\u200d");
    expect((await metaOf(blank)).title).not.toMatch(/^[\u200b-\u200d]*$/);
  });
});
