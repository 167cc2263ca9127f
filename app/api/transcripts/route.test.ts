import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { planReplay } from "@/components/replay/replay-plan";
import { exactDuration, type RunSpan, runSpanOf } from "@/lib/replay/run-spans";
import type { Transcript, TranscriptMeta } from "@/lib/store";
import { transcriptRunsOf } from "@/lib/store/transcript-runs";
import { parseJsonl } from "@/lib/transcripts/jsonl";
import type { TaskStep } from "@/lib/transcripts/task-step-types";
import { GET as exportTranscript } from "./[id]/export/route";
import { POST as restore } from "./[id]/restore/route";
import { GET as getOne, DELETE as remove, PATCH as rename } from "./[id]/route";
import { POST as importFile } from "./import/route";
import { GET as list } from "./route";
import {
  get,
  listOf,
  newTranscript,
  params,
  run,
  stripped,
  transcriptOf,
  url,
} from "./route.testing";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-transcripts-"));
});

describe("list, get, rename, delete and restore", () => {
  it("lists, searches, pages, renames, deletes softly and restores", async () => {
    const a = await newTranscript("list the files for the zebra report");
    const b = await newTranscript("calculate 6 * 7");
    const all = await listOf();
    expect(all.transcripts.slice(0, 2).map((summary) => summary.id)).toEqual([b, a]);
    expect(all.transcripts[0]).toMatchObject({
      title: "calculate 6 * 7",
      dialect: "xml",
      model: { provider: "demo" },
    });
    expect((await listOf("?query=ZEBRA")).transcripts.map((summary) => summary.id)).toEqual([a]);
    const page = await listOf("?limit=1&offset=0");
    expect(page.transcripts).toHaveLength(1);
    expect(page.nextOffset).toBe(1);

    const detail = await transcriptOf(a);
    expect(detail.meta).toMatchObject({ id: a, title: "list the files for the zebra report" });
    expect(detail.records[0]).toMatchObject({ seq: 1, kind: "event", event: { type: "user" } });

    const renamed = await rename(
      new Request(url(`/${a}`), {
        method: "PATCH",
        body: JSON.stringify({ title: "  Zebra files " }),
      }),
      params(a),
    );
    expect(((await renamed.json()) as { meta: TranscriptMeta }).meta.title).toBe("Zebra files");

    expect((await remove(new Request(url(`/${a}`)), params(a))).status).toBe(200);
    expect((await get(a)).status).toBe(404);
    expect((await listOf()).transcripts.map((summary) => summary.id)).not.toContain(a);
    expect((await remove(new Request(url(`/${a}`)), params(a))).status).toBe(404);
    expect((await restore(new Request(url(`/${a}/restore`)), params(a))).status).toBe(200);
    expect((await transcriptOf(a)).meta.title).toBe("Zebra files");
    expect((await restore(new Request(url(`/${a}/restore`)), params(a))).status).toBe(404);
  });

  it.each([
    ["list with a bad limit", () => list(new Request(url("?limit=0"))), 400, "limit:"],
    [
      "list with an unknown parameter",
      () => list(new Request(url("?sort=x"))),
      400,
      'query: unknown parameter "sort".',
    ],
    ["get an unknown transcript", () => get("nope"), 404, 'id: no transcript "nope".'],
    ["get a bad id", () => get("../etc"), 400, "id: must be a transcript id."],
    [
      "rename to nothing",
      () =>
        rename(new Request(url("/x"), { method: "PATCH", body: '{"title":"  "}' }), params("x")),
      400,
      "title: must not be empty.",
    ],
    [
      "rename with an extra field",
      () =>
        rename(
          new Request(url("/x"), { method: "PATCH", body: '{"title":"a","x":1}' }),
          params("x"),
        ),
      400,
      'body: unknown field "x".',
    ],
    [
      "rename an unknown transcript",
      () => rename(new Request(url("/x"), { method: "PATCH", body: '{"title":"a"}' }), params("x")),
      404,
      "id:",
    ],
  ])("%s → %s", async (_name, call, status, message) => {
    const response = await call();
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error.startsWith(message)).toBe(true);
  });
});

describe("GET /api/transcripts/:id in pages", () => {
  const page = async (id: string, query: string) =>
    getOne(new Request(url(`/${id}${query}`)), params(id));

  it("gives the tail, the page before it, and a range; the whole transcript without limit", async () => {
    const id = await newTranscript("list the files and read one");
    const whole = await transcriptOf(id);
    const count = whole.records.length;
    expect(count).toBeGreaterThan(6);
    const tail = (await (await page(id, "?limit=3&from=end")).json()) as Transcript & {
      recordCount: number;
    };
    expect(tail.recordCount).toBe(count);
    expect(tail.meta.id).toBe(id);
    expect(tail.records).toEqual(whole.records.slice(-3));
    const before = (await (
      await page(id, `?limit=3&from=end&before=${count - 2}`)
    ).json()) as Transcript;
    expect(before.records).toEqual(whole.records.slice(-6, -3));
    const range = (await (await page(id, "?after=1&limit=2")).json()) as Transcript;
    expect(range.records).toEqual(whole.records.slice(1, 3));
    expect(whole).not.toHaveProperty("recordCount");
    expect(range).not.toHaveProperty("runs");
  });

  it("adds the transcript's runs with `runs=1`: what replay needs to time it, not its records", async () => {
    const id = await newTranscript("list the files and read one");
    await run({ message: "calculate 1 + 1", transcriptId: id });
    const whole = await transcriptOf(id);
    const first = (await (await page(id, "?after=0&limit=2&runs=1")).json()) as Transcript & {
      runs: RunSpan[];
    };
    expect(first.records).toEqual(whole.records.slice(0, 2));
    const runIds = [...new Set(whole.records.map((record) => record.runId))];
    expect(first.runs).toEqual(transcriptRunsOf(whole.records).map(runSpanOf));
    expect(first.runs.map((span) => span.runId)).toEqual(runIds);
    expect(first.runs.at(-1)?.lastSeq).toBe(whole.records.length);
    // Its length, from the runs alone, is the one replay plans from every record.
    expect(exactDuration(first.runs)).toBe(planReplay("xml", whole.records).duration);
  });

  it("refuses a bad page query and answers 404 for an unknown transcript", async () => {
    const id = await newTranscript("calculate 1 + 1");
    const refused = async (query: string) => (await (await page(id, query)).json()) as unknown;
    expect(await refused("?after=3")).toEqual({
      error: expect.stringMatching(/^limit: required with after, before, from or runs/),
    });
    expect(await refused("?runs=1")).toEqual({
      error: expect.stringMatching(/^limit: required with after, before, from or runs/),
    });
    expect(await refused("?limit=5&runs=yes")).toEqual({ error: expect.stringMatching(/^runs: /) });
    expect(await refused("?limit=0")).toEqual({ error: expect.stringMatching(/^limit: /) });
    expect(await refused("?limit=5&from=middle")).toEqual({
      error: expect.stringMatching(/^from: /),
    });
    // A number in digits, given once: not whichever value came last, not `0x10` or `1e2`.
    expect(await refused("?limit=abc&limit=5")).toEqual({
      error: "limit: given more than once; give it once.",
    });
    for (const query of ["?limit=0x10", "?limit=1e2", "?limit=5.0", "?limit=5&after=-1"])
      expect(await refused(query), query).toEqual({
        error: expect.stringMatching(/^(limit|after): must be a whole number written in digits/),
      });
    // Digits past what a number holds exactly: said as too large, not as "not digits".
    for (const query of ["?limit=99999999999999999999", "?limit=5&after=9007199254740993"])
      expect(await refused(query), query).toEqual({
        error: expect.stringMatching(/^(limit|after): is too large: at most 15 digits/),
      });
    expect((await page(id, "?limit=5&after=999999999999999")).status).toBe(200);
    expect((await page(id, "?limit=16")).status).toBe(200);
    expect((await list(new Request(url("?offset=1e1")))).status).toBe(400);
    // An empty number is refused naming it, not read as absent (`?limit=` sent the whole transcript).
    for (const query of ["?limit=", "?limit=5&after=", "?limit=5&before=", "?limit=5&runs="])
      expect(await refused(query), query).toEqual({
        error: expect.stringMatching(/^(limit|after|before|runs): /),
      });
    expect(await refused("?limit=")).toEqual({
      error: "limit: is empty: give a whole number in digits, or leave the parameter out.",
    });
    for (const query of ["?limit=", "?offset=", "?source="]) {
      const answer = await list(new Request(url(query)));
      expect(answer.status, query).toBe(400);
      expect(await answer.json(), query).toEqual({
        error: expect.stringMatching(new RegExp(`^${query.slice(1, -1)}: `)),
      });
    }
    expect((await list(new Request(url("?query=")))).status).toBe(200);
    expect((await page("missing", "?limit=5")).status).toBe(404);
  });
});

describe("export and import", () => {
  it("exports JSONL, Markdown and TaskSteps as downloads named after the title", async () => {
    const id = await newTranscript("read README.md «now»");
    const exported = async (query: string) =>
      exportTranscript(new Request(url(`/${id}/export${query}`)), params(id));

    const jsonl = await exported("");
    expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(jsonl.headers.get("content-disposition")).toBe(
      `attachment; filename="read-README.md-now.jsonl"; filename*=UTF-8''read-README.md-%C2%ABnow%C2%BB.jsonl`,
    );
    const parsed = parseJsonl(await jsonl.text());
    expect(parsed.ok && parsed.file.header.id).toBe(id);

    const markdown = await (await exported("?format=markdown&reasoning=0&requests=1")).text();
    expect(markdown).toContain("## User\n\nread README.md «now»");
    expect(markdown).toContain("**Call** `read`");
    expect(markdown).not.toContain("**Reasoning**");
    expect(markdown).toContain("### Request · turn 0 · demo/scripted");

    const steps = (await (await exported("?format=tasksteps")).json()) as TaskStep[];
    expect(steps[0]).toMatchObject({
      agent_name: "user",
      parts: [{ type: "text", text: "read README.md «now»" }],
    });
    expect(steps[1]?.parts.map((part) => part.type)).toEqual(["text", "tool_call", "tool_result"]);

    const bad = await exported("?format=pdf");
    expect(bad.status).toBe(400);
  });

  it("export → import gives back the same transcript under a new id", async () => {
    const id = await newTranscript("demo: parallel batch");
    const original = await transcriptOf(id);
    const file = await (
      await exportTranscript(new Request(url(`/${id}/export`)), params(id))
    ).text();
    const response = await importFile(new Request(url("/import"), { method: "POST", body: file }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      transcript: TranscriptMeta;
      importedFrom: { originalId: string };
      records: number;
    };
    expect(body.importedFrom.originalId).toBe(id);
    expect(body.transcript.id).not.toBe(id);
    const imported = await transcriptOf(body.transcript.id);
    const { id: _a, createdAt: _b, updatedAt: _c, source: _d, ...sameMeta } = original.meta;
    expect(imported.meta).toMatchObject(sameMeta);
    expect([original.meta.source, imported.meta.source]).toEqual(["playground", "import"]);
    expect(stripped(imported.records)).toEqual(stripped(original.records));
    expect(imported.importedFrom).toMatchObject({ originalId: id });
    // And once more: the imported one exports to the same lines, header id and time aside.
    const again = await (
      await exportTranscript(
        new Request(url(`/${imported.meta.id}/export`)),
        params(imported.meta.id),
      )
    ).text();
    expect(again.split("\n").slice(1)).toEqual(file.split("\n").slice(1));
  });

  it("imports a multipart upload (the file picker and drag-and-drop)", async () => {
    const id = await newTranscript("list the files");
    const file = await (
      await exportTranscript(new Request(url(`/${id}/export`)), params(id))
    ).text();
    const form = new FormData();
    form.set("file", new Blob([file], { type: "application/x-ndjson" }), "run.jsonl");
    const response = await importFile(new Request(url("/import"), { method: "POST", body: form }));
    expect(response.status).toBe(201);
  });

  it("refuses a bad file with the first bad line, a large one with 413, non-UTF-8 with 400", async () => {
    const id = await newTranscript("list the files");
    const lines = (
      await (await exportTranscript(new Request(url(`/${id}/export`)), params(id))).text()
    ).split("\n");
    lines[3] = '{"kind":"event","event":{"type":"thought","id":"x","timestamp":0}}';
    const bad = await importFile(
      new Request(url("/import"), { method: "POST", body: lines.join("\n") }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: expect.stringMatching(
        /^line 4: event\.type: Invalid option: expected one of "user"\|/,
      ),
      line: 4,
    });

    process.env.WIRESCOPE_IMPORT_MAX_MB = "0.001";
    try {
      const large = await importFile(
        new Request(url("/import"), { method: "POST", body: "x".repeat(2000) }),
      );
      expect(large.status).toBe(413);
    } finally {
      delete process.env.WIRESCOPE_IMPORT_MAX_MB;
    }
    const binary = await importFile(
      new Request(url("/import"), { method: "POST", body: new Uint8Array([0xff, 0xfe, 0x00]) }),
    );
    expect(binary.status).toBe(400);
    expect(((await binary.json()) as { error: string }).error).toBe(
      "body: the file is not UTF-8 text.",
    );
  });
});
