/**
 * Stopping a captured call (`POST /api/runs/:runId/stop` → `stopAnywhere`): on the instance
 * that proxies it, or on another one sharing its database, through the store. The proxied
 * call is broken off (the agent's answer ends with an error, the upstream request is aborted)
 * and the turn ends with an `interrupt` (`user`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "../providers/testing/fake-provider-server";
import { RunRegistry, runRegistry } from "../server/run-registry";
import { openSqliteStore, type SqliteStore } from "../store/sqlite-store";
import { type CallOutcome, type CallToCapture, type Capture, createCapture } from "./capture";
import { proxyRequest } from "./proxy";
import { storeSink } from "./sink";
import { type ProxyServer, proxiedChat, stalledChat, startProxyServer } from "./testing";

const directory = mkdtempSync(join(tmpdir(), "wirescope-proxy-stop-"));
let fake: FakeProviderServer;
let proxy: ProxyServer;
/** The proxy's instance writes through `a`; another instance reads the same file through `b`. */
let a: SqliteStore;
let b: SqliteStore;

beforeAll(async () => {
  const path = join(directory, "shared.db");
  a = openSqliteStore({ path });
  b = openSqliteStore({ path });
  fake = await startFakeProviderServer({ chunkChars: 5 });
  proxy = await startProxyServer({
    env: { OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: "sk-test-0123456789" },
    store: a,
  });
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
  await a.close();
  await b.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A streamed call whose upstream sends half its answer, then nothing: it runs until stopped. */
async function stalledCall(): Promise<{
  reader: ReadableStreamDefaultReader<Uint8Array>;
  runId: string;
  transcriptId: string;
}> {
  const before = new Set((await a.listLiveRuns()).map((run) => run.runId));
  const response = await stalledChat(proxy.url);
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  for (;;) {
    const run = (await a.listLiveRuns()).find((live) => !before.has(live.runId));
    if (run !== undefined) return { reader, runId: run.runId, transcriptId: run.transcriptId };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads the agent's answer to its end: it must break off, not end as if whole. */
async function brokenOff(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<unknown> {
  try {
    for (;;) if ((await reader.read()).done) return "ended as if whole";
  } catch (error) {
    return error;
  }
}

async function lastEvent(transcriptId: string, runId: string): Promise<ProtocolEvent | undefined> {
  await proxy.settled();
  const records = await a.listRunRecords(transcriptId, runId, 0);
  const last = records.at(-1);
  return last?.kind === "event" ? last.event : undefined;
}

describe("stopping a captured call", () => {
  it("on its own instance: the call is broken off and the turn ends with an interrupt (user)", async () => {
    const { reader, runId, transcriptId } = await stalledCall();
    const upstream = fake.requests.at(-1);
    expect(await runRegistry().stopAnywhere(a, runId)).toBe(true);
    expect(await brokenOff(reader)).toBeInstanceOf(Error);
    expect(await upstream?.closed).toBe("aborted");
    expect(await lastEvent(transcriptId, runId)).toMatchObject({
      type: "interrupt",
      reason: "user",
    });
    expect((await a.getRunInfo(runId))?.endedAt).not.toBeNull();
    expect(await runRegistry().stopAnywhere(a, runId)).toBe(false);
  });

  it("from another instance: the proxying instance stops it at its next read of its stop requests", async () => {
    const { reader, runId, transcriptId } = await stalledCall();
    const upstream = fake.requests.at(-1);
    const other = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 1024 * 1024 }, "other");
    expect(await other.stopAnywhere(b, runId)).toBe(true);
    expect(await runRegistry().applyStopRequests(a)).toEqual([runId]);
    expect(await brokenOff(reader)).toBeInstanceOf(Error);
    expect(await upstream?.closed).toBe("aborted");
    expect(await lastEvent(transcriptId, runId)).toMatchObject({
      type: "interrupt",
      reason: "user",
    });
    expect(await other.stopAnywhere(b, runId)).toBe(false);
  });

  it("ends the recording at once, even while the agent is not reading its answer", async () => {
    let begun: (call: CallToCapture) => void = () => {};
    const call = new Promise<CallToCapture>((resolve) => {
      begun = resolve;
    });
    let ended: (outcome: CallOutcome | undefined) => void = () => {};
    const outcome = new Promise<CallOutcome | undefined>((resolve) => {
      ended = resolve;
    });
    const capture: Capture = {
      begin(started) {
        begun(started);
        return {
          transcriptId: "t",
          response() {},
          push() {},
          fellBehind() {},
          end: async (how) => ended(how),
        };
      },
    };
    // An upstream that sends one chunk, then nothing until it is aborted.
    const upstream: typeof fetch = async (_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: a\n\n"));
          init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const response = await proxiedChat(upstream, capture);
    (await call).stop();
    expect(await outcome).toBe("user");
    // Broken off as an abort: Next then breaks the connection without logging a stack.
    await expect(response.text()).rejects.toMatchObject({
      name: "AbortError",
      message: expect.stringMatching(/stopped from Wirescope/),
    });
  });

  it("a call that names its dialect is a run before the upstream answers; a stop aborts the upstream and the agent gets a clear error", async () => {
    const capture = createCapture({
      sink: storeSink(a, (message, error) => {
        throw new Error(`${message}: ${String(error)}`);
      }),
      secrets: [],
      maxRecordChars: 4096,
    });
    // An upstream that sends nothing, not even its headers, until it is aborted.
    let aborted: (reason: unknown) => void = () => {};
    let upstreamAborted = Promise.resolve<unknown>(undefined);
    const upstream: typeof fetch = (_url, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => {
          aborted(init.signal?.reason);
          reject(init.signal?.reason);
        });
      });
    let recorded = Promise.resolve();
    const call = (headers: Record<string, string>) =>
      proxyRequest(
        new Request("http://127.0.0.1/proxy/openai/v1/chat/completions", {
          method: "POST",
          headers,
          body: JSON.stringify({
            model: "m",
            messages: [{ role: "user", content: "list the files" }],
          }),
        }),
        "openai",
        {
          env: { OPENAI_BASE_URL: "http://upstream.invalid/v1" },
          capture,
          maxBodyBytes: 4096,
          fetch: upstream,
          onRecording: (ended) => {
            recorded = ended;
          },
        },
      );
    // Named by the header; then named by its transcript (the session's first turn chose xml).
    for (const headers of <Record<string, string>[]>[
      { "x-wirescope-dialect": "xml", "x-wirescope-session": "named-early" },
      { "x-wirescope-session": "named-early" },
    ]) {
      upstreamAborted = new Promise<unknown>((resolve) => {
        aborted = resolve;
      });
      const before = new Set((await a.listLiveRuns()).map((run) => run.runId));
      const answer = call(headers);
      let run: { runId: string; transcriptId: string } | undefined;
      while (run === undefined) {
        run = (await a.listLiveRuns()).find((live) => !before.has(live.runId));
        if (run === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await runRegistry().stopAnywhere(a, run.runId)).toBe(true);
      expect(await upstreamAborted).toBe("user");
      const response = await answer;
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: string }).error).toMatch(
        /stopped from Wirescope.*before the openai upstream answered/,
      );
      await recorded;
      const records = await a.listRunRecords(run.transcriptId, run.runId, 0);
      expect(records.map((record) => record.kind)).toContain("request");
      expect(records.at(-1)).toMatchObject({
        kind: "event",
        event: { type: "interrupt", reason: "user" },
      });
      expect((await a.getRunInfo(run.runId))?.endedAt).not.toBeNull();
    }
  });
});
