import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRunStream } from "@/lib/client/run-stream";
import type { Transcript } from "@/lib/store";
import { POST as startRun } from "../runs/route";
import { GET as exportTranscript } from "./[id]/export/route";
import { POST as fork } from "./[id]/fork/route";
import { POST as rerun } from "./[id]/rerun/route";
import { GET as getOne } from "./[id]/route";
import { POST as importFile } from "./import/route";
import { GET as listTranscripts } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-hardening-"));
});

const url = (path: string) => `http://localhost/api/transcripts${path}`;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (body: string) => ({ method: "POST", body });

/** `POST /api/runs` on the demo at full speed; `transcriptId` continues that conversation. */
const run = (message: string, transcriptId?: string) =>
  startRun(
    new Request(
      "http://localhost/api/runs",
      post(
        JSON.stringify({
          dialect: "xml",
          message,
          ...(transcriptId === undefined ? {} : { transcriptId }),
          model: { provider: "demo", settings: { paceMs: 0 } },
        }),
      ),
    ),
  );

async function newTranscript(message: string): Promise<string> {
  const response = await run(message);
  if (response.body === null) throw new Error(`no body: ${response.status}`);
  let id = "";
  for await (const record of readRunStream(response.body))
    if (record.kind === "run") id = record.transcriptId;
  return id;
}

const exported = async (id: string, query = "") =>
  exportTranscript(new Request(url(`/${id}/export${query}`)), params(id));
const transcriptOf = async (id: string) =>
  (await (await getOne(new Request(url(`/${id}`)), params(id))).json()) as Transcript & {
    importedFrom?: Record<string, unknown>;
  };

const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("deep nesting from outside", () => {
  it("refuses a fork's deeply nested editResult.content with a 400 naming the field", async () => {
    const id = await newTranscript("list the files");
    const { records } = await transcriptOf(id);
    const result = records.find(
      (record) => record.kind === "event" && record.event.type === "result",
    );
    if (result?.kind !== "event" || result.event.type !== "result") throw new Error("no result");
    const body = `{"at":${result.seq},"editResult":{"callId":"${result.event.callId}","content":${deepArray(5000)}}}`;
    // Before: zod's recursive z.json() threw a RangeError and the route answered an empty 500.
    const response = await fork(new Request(url(`/${id}/fork`), post(body)), params(id));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^editResult\.content\.0\.0.*: nested deeper than 64 levels\.$/,
    );
  });

  it("refuses an imported record nested past the limit, naming the line and field", async () => {
    const id = await newTranscript("list the files");
    const lines = (await (await exported(id)).text()).trimEnd().split("\n");
    lines.push(
      `{"kind":"request","turn":9,"t":0,"provider":"x","model":"y","messages":${deepArray(4000)},"settings":{}}`,
    );
    const response = await importFile(new Request(url("/import"), post(lines.join("\n"))));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(
        new RegExp(`^line ${lines.length}: messages\\.0\\.0.*: nested deeper than 64 levels$`),
      ),
      line: lines.length,
    });
  });
});

describe("imports and fork links", () => {
  it("never links an import to an existing transcript; the claimed parent stays inert", async () => {
    const victim = await newTranscript("calculate 6 * 7");
    const source = await newTranscript("list the files");
    const lines = (await (await exported(source)).text()).split("\n");
    const header = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, parentId: victim, forkPoint: 2 });
    const response = await importFile(new Request(url("/import"), post(lines.join("\n"))));
    expect(response.status).toBe(201);
    const { transcript } = (await response.json()) as { transcript: { id: string } };
    const imported = await transcriptOf(transcript.id);
    expect(imported.meta.parentId).toBeUndefined();
    expect(imported.meta.forkPoint).toBeUndefined();
    expect(imported.importedFrom).toMatchObject({ parentId: victim, forkPoint: 2 });
  });
});

describe("imports continued", () => {
  it("an import naming a tool twice can be continued and run again: the tool is offered once", async () => {
    const source = await newTranscript("calculate 6 * 7");
    const lines = (await (await exported(source)).text()).split("\n");
    const header = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, tools: ["calculate", "list", "calculate"] });
    const imported = await importFile(new Request(url("/import"), post(lines.join("\n"))));
    expect(imported.status).toBe(201);
    const { transcript } = (await imported.json()) as { transcript: { id: string } };
    const response = await run("calculate 2 * 3", transcript.id);
    expect(response.status).toBe(200);
    const types: string[] = [];
    if (response.body === null) throw new Error("no body");
    for await (const record of readRunStream(response.body))
      if (record.kind === "event") types.push(record.event.type);
    expect(types).toContain("result");
    expect(types.at(-2)).toBe("end");
    // Run again on the same model: the same tools, each once.
    const again = await rerun(
      new Request(url(`/${transcript.id}/rerun`), post(JSON.stringify({ mode: "first" }))),
      params(transcript.id),
    );
    expect(again.status).toBe(202);
  });
});

describe("exports", () => {
  it("stream Markdown and TaskSteps, each a complete document", async () => {
    const id = await newTranscript("list the files");
    const markdown = await exported(id, "?format=markdown");
    expect(markdown.body).toBeInstanceOf(ReadableStream);
    const text = await markdown.text();
    expect(text).toMatch(/^# list the files\n/);
    expect(text.endsWith("\n")).toBe(true);
    const steps = await exported(id, "?format=tasksteps");
    const parsed = JSON.parse(await steps.text()) as unknown[];
    expect(parsed.length).toBeGreaterThan(0);
  });
});

describe("a slow upload (slowloris)", () => {
  it("an import whose body stops arriving gets 408 naming the body, and leaves nothing visible", async () => {
    const source = await newTranscript("list the files");
    const before = (await (await listTranscripts(new Request(url("")))).json()) as {
      transcripts: unknown[];
    };
    process.env.WIRESCOPE_BODY_IDLE_TIMEOUT_S = "0.05";
    try {
      // A real file's first lines, then nothing more.
      const lines = (await (await exported(source)).text()).split("\n").slice(0, 2);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`${lines.join("\n")}\n`));
        },
      });
      const response = await importFile(
        new Request(url("/import"), { method: "POST", body, duplex: "half" } as RequestInit),
      );
      expect(response.status).toBe(408);
      expect(((await response.json()) as { error: string }).error).toMatch(
        /^body: nothing arrived for 0.05 s/,
      );
    } finally {
      delete process.env.WIRESCOPE_BODY_IDLE_TIMEOUT_S;
    }
    const after = (await (await listTranscripts(new Request(url("")))).json()) as {
      transcripts: unknown[];
    };
    expect(after.transcripts).toHaveLength(before.transcripts.length);
  });
});
