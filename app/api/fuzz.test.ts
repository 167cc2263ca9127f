import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as proxy } from "../proxy/[provider]/v1/[...path]/route";
import { GET as config } from "./config/route";
import { GET as runEvents } from "./runs/[runId]/events/route";
import { POST as stop } from "./runs/[runId]/stop/route";
import { GET as activeRuns, POST as startRun } from "./runs/route";
import { GET as exportTranscript } from "./transcripts/[id]/export/route";
import { POST as fork } from "./transcripts/[id]/fork/route";
import { POST as sendOtlp } from "./transcripts/[id]/otlp/route";
import { POST as rerun, GET as rerunStatus } from "./transcripts/[id]/rerun/route";
import { POST as restore } from "./transcripts/[id]/restore/route";
import { GET as getOne, DELETE as remove, PATCH as rename } from "./transcripts/[id]/route";
import { POST as importFile } from "./transcripts/import/route";
import { GET as list } from "./transcripts/route";

/**
 * Every route, called in-process with generated bodies, headers, ids and queries: no 5xx,
 * every error a JSON `{ error }`, and the routes still answer afterwards. Seeded, so a failure
 * names a seed that reproduces it.
 */
let existing = "";
let existingRun = "";

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-fuzz-"));
  process.env.WIRESCOPE_DEMO_PACE_MS = "0";
  const response = await startRun(
    new Request("http://localhost/api/runs", {
      method: "POST",
      body: JSON.stringify({ dialect: "xml", message: "list the files" }),
    }),
  );
  existing = response.headers.get("x-transcript-id") ?? "";
  existingRun = response.headers.get("x-run-id") ?? "";
  await response.text();
});

const SEED = 1010;
const runs = (count: number) => ({ numRuns: count, seed: SEED });

/** Checks one answer; a stream that started (a run, an export) is read or cancelled. */
async function answered(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400) {
    const body = (await response.json()) as { error?: unknown };
    expect(typeof body.error).toBe("string");
  } else {
    await response.body?.cancel();
  }
}

const anyId = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
  fc.constant("../../etc/passwd"),
  fc.constant("x".repeat(300)),
  fc.string({ unit: "grapheme", maxLength: 10 }),
);
const idOrExisting = fc.oneof(anyId, fc.constant("existing"));
const params = (id: string) => ({
  params: Promise.resolve({ id: id === "existing" ? existing : id }),
});

/** A value nested `depth` levels, as JSON text (built as text: no recursion needed). */
const deepJson = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
/** Where a generated value says `DEEP`, the body gets a value nested past any sane limit. */
const DEEP = "__DEEP__";
const withDeep = (json: string) => json.replaceAll(`"${DEEP}"`, deepJson(5000));

/** Bodies: random text, random JSON, and JSON near the schemas (the interesting cases). */
const jsonBody = (near: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    near.map((value) => withDeep(JSON.stringify(value))),
    fc.constantFrom(10, 63, 64, 65, 5000).map((depth) => `{"a":${deepJson(depth)}}`),
  );

const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "text/plain",
      "multipart/form-data; boundary=x",
      "application/x-ndjson",
      "",
    ),
    origin: fc.constantFrom("http://localhost", "https://evil.example", "null", "not a url"),
    "sec-fetch-site": fc.constantFrom("same-origin", "cross-site", "none", "same-site"),
    "content-length": fc.constantFrom("0", "1", "999999999999", "-1", "abc"),
  },
  { requiredKeys: [] },
);

function request(path: string, method: string, body: string | undefined, head: object) {
  const init: RequestInit = { method, headers: head as Record<string, string> };
  if (body !== undefined && method !== "GET") init.body = body;
  try {
    return new Request(`http://localhost${path}`, init);
  } catch {
    // A header undici itself refuses never reaches a route.
    return new Request(`http://localhost${path}`, {
      method,
      ...(init.body ? { body: init.body } : {}),
    });
  }
}

const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const runBody = fc.record(
  {
    message: fc.oneof(fc.string({ maxLength: 30 }), scalar),
    dialect: fc.oneof(fc.constantFrom("xml", "delimiter", "action", "json"), scalar),
    model: fc.oneof(
      fc.record(
        { provider: fc.constantFrom("nope", "demo", ""), id: scalar },
        { requiredKeys: [] },
      ),
      scalar,
    ),
    transcriptId: anyId,
    tools: fc.oneof(fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), scalar),
    format: fc.oneof(fc.constantFrom("records", "tasksteps"), scalar),
    extra: scalar,
  },
  { requiredKeys: [] },
);

describe("route fuzz", { timeout: 120_000 }, () => {
  it("POST /api/runs", async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody(runBody), headers, async (body, head) => {
        await answered(await startRun(request("/api/runs", "POST", body, head)));
      }),
      runs(500),
    );
  });

  it("GET, PATCH, DELETE and restore /api/transcripts/:id", async () => {
    const title = fc.record(
      { title: fc.oneof(fc.string({ maxLength: 30 }), scalar) },
      {
        requiredKeys: [],
      },
    );
    await fc.assert(
      fc.asyncProperty(anyId, jsonBody(title), headers, async (id, body, head) => {
        const path = `/api/transcripts/${encodeURIComponent(id)}`;
        await answered(await getOne(request(path, "GET", undefined, head), params(id)));
        await answered(await rename(request(path, "PATCH", body, head), params(id)));
        await answered(await remove(request(path, "DELETE", undefined, head), params(id)));
        await answered(await restore(request(`${path}/restore`, "POST", "", head), params(id)));
      }),
      runs(300),
    );
  });

  it("POST /api/transcripts/:id/fork", async () => {
    const forkBody = fc.record(
      {
        at: fc.oneof(fc.integer({ min: -2, max: 40 }), scalar),
        editUserMessage: fc.oneof(fc.string({ maxLength: 20 }), scalar),
        editResult: fc.oneof(
          fc.record(
            {
              callId: fc.string({ maxLength: 10 }),
              content: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(DEEP)),
            },
            { requiredKeys: [] },
          ),
          scalar,
        ),
        dialect: fc.oneof(fc.constantFrom("xml", "delimiter", "action"), scalar),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(idOrExisting, jsonBody(forkBody), headers, async (id, body, head) => {
        await answered(
          await fork(request("/api/transcripts/x/fork", "POST", body, head), params(id)),
        );
      }),
      runs(600),
    );
  });

  it("POST and GET /api/transcripts/:id/rerun, POST /api/transcripts/:id/otlp", async () => {
    const rerunBody = fc.record(
      {
        mode: fc.oneof(fc.constantFrom("first", "all"), scalar),
        model: fc.oneof(
          fc.record(
            {
              provider: fc.constantFrom("nope", "demo", ""),
              id: scalar,
              baseUrl: fc.constant("http://169.254.169.254/"),
            },
            { requiredKeys: [] },
          ),
          scalar,
          fc.constant(DEEP),
        ),
        dialect: fc.oneof(fc.constantFrom("xml", "delimiter", "hermes", "custom"), scalar),
        extra: scalar,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(idOrExisting, jsonBody(rerunBody), headers, async (id, body, head) => {
        const started = await rerun(
          request("/api/transcripts/x/rerun", "POST", body, head),
          params(id),
        );
        await answered(started);
        await answered(
          await rerunStatus(
            request("/api/transcripts/x/rerun", "GET", undefined, head),
            params(id),
          ),
        );
        await answered(
          await sendOtlp(request("/api/transcripts/x/otlp", "POST", body, head), params(id)),
        );
      }),
      runs(300),
    );
  });

  it("POST /api/transcripts/import", async () => {
    const header =
      '{"format":"wirescope-transcript","version":1,"id":"f","title":"t","created":0,"dialect":"xml","model":{"provider":"demo","id":"x"},"system":"","tools":[]}';
    const lines = fc.array(
      fc.oneof(
        fc.constant(header),
        fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
        fc.string({ maxLength: 40 }),
        fc
          .record({
            kind: fc.constantFrom("event", "chunk", "request", "other"),
            turn: fc.oneof(fc.nat(5), scalar),
            t: fc.oneof(fc.integer(), scalar),
            text: scalar,
          })
          .map((value) => JSON.stringify(value)),
      ),
      { maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(lines, fc.boolean(), headers, async (file, withHeader, head) => {
        const body = [...(withHeader ? [header] : []), ...file].join("\n");
        await answered(await importFile(request("/api/transcripts/import", "POST", body, head)));
      }),
      runs(600),
    );
    // Raw text: any text near every dialect's markers, with any of the import's parameters.
    const markers = fc.constantFrom(
      "<tool_call>",
      "</tool_call>",
      "<think>",
      "<execute>",
      "§call:",
      "§execute",
      "<action ",
      "<respond>",
      '{"name": "x", "arguments": {}}',
      "\uFFFD",
      "\u0000",
    );
    const text = fc
      .array(fc.oneof(markers, fc.string({ maxLength: 30 }), fc.string({ unit: "grapheme" })), {
        maxLength: 12,
      })
      .map((parts) => parts.join(""));
    const query = fc
      .dictionary(
        fc.constantFrom("format", "dialect", "title", "x"),
        fc.oneof(
          fc.constantFrom("text", "jsonl", "auto", "hermes", "xml", "delimiter", "action", ""),
          fc.string({ maxLength: 12 }),
        ),
        { maxKeys: 3 },
      )
      .map((entries) => new URLSearchParams(entries).toString());
    await fc.assert(
      fc.asyncProperty(text, query, headers, async (body, search, head) => {
        await answered(
          await importFile(request(`/api/transcripts/import?${search}`, "POST", body, head)),
        );
      }),
      runs(600),
    );
  });

  it("GET /api/transcripts and its export, with any query", async () => {
    const query = fc
      .dictionary(
        fc.constantFrom("format", "query", "limit", "offset", "reasoning", "tools", "content", "x"),
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom("markdown", "tasksteps", "jsonl", "otlp", "1", "-1"),
        ),
        { maxKeys: 4 },
      )
      .map((entries) => new URLSearchParams(entries).toString());
    await fc.assert(
      fc.asyncProperty(idOrExisting, query, async (id, search) => {
        await answered(await list(new Request(`http://localhost/api/transcripts?${search}`)));
        await answered(
          await exportTranscript(
            new Request(`http://localhost/api/transcripts/x/export?${search}`),
            params(id),
          ),
        );
      }),
      runs(400),
    );
  });

  it("POST /api/runs/:runId/stop and GET /api/config", async () => {
    await fc.assert(
      fc.asyncProperty(anyId, headers, async (runId, head) => {
        await answered(
          await stop(request("/api/runs/x/stop", "POST", "", head), {
            params: Promise.resolve({ runId }),
          }),
        );
      }),
      runs(300),
    );
    await answered(await config(new Request("http://localhost/api/config")));
  });

  it("GET /api/runs, /api/runs/:runId/events and a transcript's pages, with any query", async () => {
    const query = (keys: string[]) =>
      fc
        .dictionary(
          fc.constantFrom(...keys),
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom("0", "1", "-1", "2.5", "end", "start", "1e9", "99999999999999999999"),
          ),
          { maxKeys: 4 },
        )
        .map((entries) => new URLSearchParams(entries).toString());
    const runId = fc.oneof(anyId, fc.constant("existing"));
    await fc.assert(
      fc.asyncProperty(
        runId,
        idOrExisting,
        query(["active", "after", "x"]),
        query(["limit", "after", "before", "from", "x"]),
        async (run, id, search, page) => {
          await answered(await activeRuns(new Request(`http://localhost/api/runs?${search}`)));
          const events = await runEvents(
            new Request(`http://localhost/api/runs/x/events?${search}`),
            {
              params: Promise.resolve({ runId: run === "existing" ? existingRun : run }),
            },
          );
          await answered(events);
          await answered(
            await getOne(new Request(`http://localhost/api/transcripts/x?${page}`), params(id)),
          );
        },
      ),
      runs(400),
    );
  });

  it("the capture proxy refuses unknown providers with a JSON 404", async () => {
    const known = new Set(["openai", "anthropic", "compat", "ollama", "lmstudio", "vllm"]);
    const name = anyId.filter(
      (candidate) => !known.has(candidate) && !["llamacpp", "openrouter"].includes(candidate),
    );
    await fc.assert(
      fc.asyncProperty(name, headers, async (provider, head) => {
        const response = await proxy(request("/proxy/x/v1/chat/completions", "GET", "", head), {
          params: Promise.resolve({ provider, path: ["chat", "completions"] }),
        });
        expect(response.status).toBeLessThan(500);
        await answered(response);
      }),
      runs(300),
    );
  });

  it("still answers afterwards", async () => {
    const listed = await list(new Request("http://localhost/api/transcripts"));
    expect(listed.status).toBe(200);
    const one = await getOne(new Request("http://localhost/"), params("existing"));
    expect(one.status).toBe(200);
  });
});
