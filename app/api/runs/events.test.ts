import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import type { ProtocolEvent } from "@/lib/protocol";
import { systemPrompt } from "@/lib/runtime/system-prompt";
import { readConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import { builtinTools, createRegistry } from "@/lib/tools";
import { POST as fork } from "../transcripts/[id]/fork/route";
import { GET as events } from "./[runId]/events/route";
import { POST as stop } from "./[runId]/stop/route";
import { GET as list, POST } from "./route";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-events-"));
});

const post = (body: unknown) =>
  POST(new Request("http://localhost/api/runs", { method: "POST", body: JSON.stringify(body) }));

const watch = (runId: string, after?: string) =>
  events(
    new Request(
      `http://localhost/api/runs/${encodeURIComponent(runId)}/events${after === undefined ? "" : `?after=${encodeURIComponent(after)}`}`,
    ),
    { params: Promise.resolve({ runId }) },
  );

const stopRequest = (runId: string) =>
  stop(new Request("http://localhost", { method: "POST" }), { params: Promise.resolve({ runId }) });

async function collect(response: Response): Promise<RunStreamRecord[]> {
  if (response.body === null) throw new Error("no body");
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(response.body)) records.push(record);
  return records;
}

/** Starts a run and reads only its first record (`run`), then drops the connection. */
async function startAndLeave(body: unknown): Promise<{ runId: string; transcriptId: string }> {
  const response = await post(body);
  if (response.body === null) throw new Error("no body");
  const reader = readRunStream(response.body);
  const first = (await reader.next()).value;
  await reader.return(undefined);
  if (first?.kind !== "run") throw new Error("the first record is not the run record");
  return { runId: first.runId, transcriptId: first.transcriptId };
}

const eventsOf = (records: RunStreamRecord[]) =>
  records.flatMap((record): ProtocolEvent[] => (record.kind === "event" ? [record.event] : []));

const plain = (records: { seq: number; runId: string }[]) =>
  records.map(({ seq: _seq, runId: _runId, ...record }) => record);

describe("GET /api/runs/:runId/events", () => {
  it("a run goes on when its connection closes; a viewer from any connection sees it to the end", async () => {
    const { runId, transcriptId } = await startAndLeave({
      message: "list the files",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 2 } },
    });
    const watched = await watch(runId, "0");
    expect(watched.status).toBe(200);
    expect(watched.headers.get("content-type")).toContain("text/event-stream");
    const records = await collect(watched);
    expect(records[0]).toEqual({ kind: "run", transcriptId, runId });
    const kinds = eventsOf(records).map((event) => event.type);
    expect(kinds).not.toContain("interrupt");
    expect(kinds.at(-2)).toBe("end");
    const stored = await getStore(readConfig().dataDir).getTranscript(transcriptId);
    expect(plain(stored?.records ?? [])).toEqual(records.slice(1));
  });

  it("reattaches to a finished run from the store, from every count", async () => {
    const response = await post({
      message: "calculate 6 * 7",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    const live = await collect(response);
    const header = live[0];
    if (header?.kind !== "run") throw new Error("no run record");
    const records = live.slice(1);
    for (let after = 0; after <= records.length; after++) {
      const again = await collect(await watch(header.runId, String(after)));
      expect(again).toEqual([header, ...records.slice(after)]);
    }
    const beyond = await watch(header.runId, String(records.length + 1));
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as { error: string }).error).toMatch(/^after: /);
  });

  it("answers 404 for an unknown run and 400 naming `after` for a bad count", async () => {
    const unknown = await watch("no-such-run");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'runId: no run "no-such-run".' });
    expect((await watch("x".repeat(500))).status).toBe(404);
    const { runId } = await startAndLeave({
      message: "hello",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    for (const bad of ["-1", "1.5", "abc", "1e3", " 2", "99999999999999999999"]) {
      const response = await watch(runId, bad);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^after: /);
    }
  });

  it("a stop from a second connection ends the run for every viewer with the interrupt", async () => {
    const { runId } = await startAndLeave({
      message: "demo: parallel batch",
      dialect: "xml",
      // Slow, so it is still running when the stop arrives on a busy machine (it is stopped anyway).
      model: { provider: "demo", settings: { paceMs: 300 } },
    });
    const viewers = [collect(await watch(runId)), collect(await watch(runId))];
    const active = (await (
      await list(new Request("http://localhost/api/runs?active=1"))
    ).json()) as {
      runs: { runId: string }[];
    };
    expect(active.runs.map((run) => run.runId)).toContain(runId);
    expect((await stopRequest(runId)).status).toBe(200);
    const [a, b] = await Promise.all(viewers);
    expect(eventsOf(a ?? []).at(-1)).toMatchObject({ type: "interrupt", reason: "user" });
    expect(b).toEqual(a);
    // Ended: 409 saying so (a run never known is 404).
    expect((await stopRequest(runId)).status).toBe(409);
    const after = (await (
      await list(new Request("http://localhost/api/runs?active=1"))
    ).json()) as {
      runs: { runId: string }[];
    };
    expect(after.runs.map((run) => run.runId)).not.toContain(runId);
  });

  it("GET /api/runs needs active=1", async () => {
    for (const query of [
      "",
      "?active=0",
      "?active=1&x=2",
      "?active=1&active=2",
      "?active=1&active=1",
    ]) {
      const response = await list(new Request(`http://localhost/api/runs${query}`));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^(active|query): /);
    }
  });

  it("refuses `after` given twice and parameters it does not read, naming them", async () => {
    const { runId } = await startAndLeave({
      message: "hello",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    });
    const cases = {
      "after=0&after=5": "after: given more than once; give it once.",
      "after=0&from=end": 'query: unknown parameter "from".',
      "after%5B%5D=1": 'query: unknown parameter "after[]".',
    };
    for (const [query, error] of Object.entries(cases)) {
      const response = await events(
        new Request(`http://localhost/api/runs/${runId}/events?${query}`),
        { params: Promise.resolve({ runId }) },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
    // An empty `after` is no count: from the start, as without it.
    const empty = await events(new Request(`http://localhost/api/runs/${runId}/events?after=`), {
      params: Promise.resolve({ runId }),
    });
    expect(empty.status).toBe(200);
    expect((await collect(empty))[0]).toMatchObject({ kind: "run", runId });
  });

  it("limits hold with nobody watching: max turns still ends the run", async () => {
    const before = process.env.WIRESCOPE_MAX_TURNS;
    process.env.WIRESCOPE_MAX_TURNS = "1";
    try {
      const { runId } = await startAndLeave({
        message: "list the files",
        dialect: "xml",
        model: { provider: "demo", settings: { paceMs: 0 } },
      });
      const records = await collect(await watch(runId));
      expect(eventsOf(records).find((event) => event.type === "error")).toMatchObject({
        code: "max_turns",
      });
    } finally {
      if (before === undefined) delete process.env.WIRESCOPE_MAX_TURNS;
      else process.env.WIRESCOPE_MAX_TURNS = before;
    }
  });
});

describe("continuing a conversation", () => {
  it("keeps the stored tools and system prompt unless the request changes them", async () => {
    const settings = { paceMs: 0 };
    const first = await collect(
      await post({
        message: "calculate 2 + 2",
        dialect: "xml",
        tools: ["calculate"],
        system: "You are a terse calculator.",
        model: { provider: "demo", settings },
      }),
    );
    const header = first[0];
    if (header?.kind !== "run") throw new Error("no run record");
    const second = await collect(
      await post({
        message: "write a.txt: hi",
        dialect: "xml",
        transcriptId: header.transcriptId,
        model: { provider: "demo", settings },
      }),
    );
    const request = second.find((record) => record.kind === "request");
    expect(request?.kind === "request" && request.messages[0]).toMatchObject({
      role: "system",
      content: "You are a terse calculator.",
    });
    const written = eventsOf(second).find((event) => event.type === "result");
    expect(written).toMatchObject({
      type: "result",
      payload: { tool: "write", status: "failure" },
    });
    // A request that names tools changes them for that run.
    const third = await collect(
      await post({
        message: "write b.txt: hi",
        dialect: "xml",
        transcriptId: header.transcriptId,
        tools: ["write"],
        model: { provider: "demo", settings },
      }),
    );
    const result = eventsOf(third).find((event) => event.type === "result");
    expect(result?.type === "result" && result.payload.status).toBe("success");

    // A fork continued as offered keeps them too.
    const forked = await fork(
      new Request("http://localhost", {
        method: "POST",
        body: JSON.stringify({ at: 1, editUserMessage: "write c.txt: hi" }),
      }),
      { params: Promise.resolve({ id: header.transcriptId }) },
    );
    expect(forked.status).toBe(201);
    const { continueWith } = (await forked.json()) as {
      continueWith: { model: { provider: string; id: string } };
    };
    const fourth = await collect(
      await post({ ...continueWith, model: { ...continueWith.model, settings } }),
    );
    const forkRequest = fourth.find((record) => record.kind === "request");
    expect(forkRequest?.kind === "request" && forkRequest.messages[0]).toMatchObject({
      content: "You are a terse calculator.",
    });
    expect(eventsOf(fourth).find((event) => event.type === "result")).toMatchObject({
      payload: { tool: "write", status: "failure" },
    });
  });

  it("writes the default system prompt for the run's dialect and tools, whatever ran before", async () => {
    const settings = { paceMs: 0 };
    const systemOf = (records: RunStreamRecord[]) => {
      const request = records.find((record) => record.kind === "request");
      const first = request?.kind === "request" ? request.messages[0] : undefined;
      return (first as { content?: unknown } | undefined)?.content;
    };
    const all = createRegistry(builtinTools({ shell: false })).describe();
    const calculate = all.filter((tool) => tool.name === "calculate");
    const start = (body: Record<string, unknown>) =>
      post({ message: "calculate 2 + 2", model: { provider: "demo", settings }, ...body });
    const full = await collect(await start({ dialect: "xml" }));
    expect(systemOf(full)).toBe(systemPrompt("xml", all));
    // Each dialect and each choice of tools gets its own prompt, not the one written before.
    expect(systemOf(await collect(await start({ dialect: "hermes" })))).toBe(
      systemPrompt("hermes", all),
    );
    expect(systemOf(await collect(await start({ dialect: "xml", tools: ["calculate"] })))).toBe(
      systemPrompt("xml", calculate),
    );
    // A conversation stored with every tool and the default prompt: the prompt follows a change of tools.
    const header = full[0];
    if (header?.kind !== "run") throw new Error("no run record");
    const changed = await collect(
      await start({ dialect: "xml", transcriptId: header.transcriptId, tools: ["calculate"] }),
    );
    expect(systemOf(changed)).toBe(systemPrompt("xml", calculate));
  });
});
