/**
 * An upstream that goes silent is given up after `upstreamIdleMs`
 * (`WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S`): before its answer with a 504 naming it and the
 * wait; mid-answer the client's stream breaks off, the upstream request is aborted and the turn
 * ends with a `provider` error saying it timed out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "../providers/testing/fake-provider-server";
import { openSqliteStore, type SqliteStore } from "../store/sqlite-store";
import type { CallOutcome, Capture } from "./capture";
import { type ProxyServer, proxiedChat, stalledChat, startProxyServer } from "./testing";
import { DEFAULT_UPSTREAM_IDLE_MS, readUpstreamIdleMs } from "./upstream-idle";

/** A capture that only notes how each call ended. */
function endings(): { capture: Capture; ended: Promise<CallOutcome | undefined> } {
  let resolve: (outcome: CallOutcome | undefined) => void = () => {};
  const ended = new Promise<CallOutcome | undefined>((done) => {
    resolve = done;
  });
  const capture: Capture = {
    begin: () => ({
      transcriptId: "t",
      response() {},
      push() {},
      fellBehind() {},
      end: async (outcome) => resolve(outcome),
    }),
  };
  return { capture, ended };
}

const call = (upstream: typeof fetch, capture: Capture, upstreamIdleMs: number) =>
  proxiedChat(upstream, capture, { upstreamIdleMs });

/** Resolves with the upstream request's abort reason once it is aborted. */
function aborted(signal: AbortSignal | null | undefined): Promise<unknown> {
  return new Promise((resolve) => signal?.addEventListener("abort", () => resolve(signal.reason)));
}

describe("an upstream that sends nothing", () => {
  it("before its answer: 504 naming the upstream and the wait, the request aborted, a provider failure recorded", async () => {
    const { capture, ended } = endings();
    let gaveUp: Promise<unknown> = Promise.resolve("never sent");
    const silent: typeof fetch = (_url, init) => {
      gaveUp = aborted(init?.signal);
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    };
    const response = await call(silent, capture, 20);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      error:
        "upstream: the openai upstream sent no answer for 0.02 s (WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S); the call was given up.",
    });
    expect(await gaveUp).toBe("upstream-idle");
    expect(await ended).toEqual({ failure: expect.stringMatching(/^The openai upstream sent no/) });
  });

  it("mid-answer: the client's stream breaks off after what was sent, the upstream is aborted", async () => {
    const { capture, ended } = endings();
    let gaveUp: Promise<unknown> = Promise.resolve("never sent");
    const stalls: typeof fetch = async (_url, init) => {
      gaveUp = aborted(init?.signal);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: a\n\n"));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const response = await call(stalls, capture, 20);
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: a\n\n");
    await expect(reader.read()).rejects.toThrow(/sent nothing for 0\.02 s mid-answer/);
    expect(await gaveUp).toBe("upstream-idle");
    expect(await ended).toEqual({
      failure: expect.stringMatching(/timed out, and the call was broken off\.$/),
    });
  });

  it("counts only the upstream's silence: a client slower than the limit reads the whole answer", async () => {
    const { capture, ended } = endings();
    const parts = ["data: a\n\n", "data: b\n\n", "data: [DONE]\n\n"];
    const ready: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            const part = parts.shift();
            if (part === undefined) controller.close();
            else controller.enqueue(new TextEncoder().encode(part));
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    const response = await call(ready, capture, 10);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    for (;;) {
      // The client pauses longer than the limit between reads: the upstream had it ready.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toBe("data: a\n\ndata: b\n\ndata: [DONE]\n\n");
    expect(await ended).toBeUndefined();
  });
});

describe("WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S", () => {
  it("is read in seconds; anything but a positive number keeps the default", () => {
    expect(readUpstreamIdleMs({ WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S: "2.5" })).toBe(2500);
    for (const value of [undefined, "", "0", "-1", "soon"])
      expect(readUpstreamIdleMs({ WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S: value })).toBe(
        DEFAULT_UPSTREAM_IDLE_MS,
      );
  });
});

describe("a stalled upstream, recorded", () => {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-upstream-idle-"));
  let fake: FakeProviderServer;
  let proxy: ProxyServer;
  let store: SqliteStore;

  beforeAll(async () => {
    store = openSqliteStore({ path: join(directory, "idle.db") });
    fake = await startFakeProviderServer({ chunkChars: 5 });
    proxy = await startProxyServer({
      env: { OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: "sk-test-0123456789" },
      store,
      upstreamIdleMs: 100,
    });
  });
  afterAll(async () => {
    await proxy.close();
    await fake.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("ends the turn with a provider error saying it timed out; the run ends, no block left open", async () => {
    const response = await stalledChat(proxy.url);
    expect(response.status).toBe(200);
    const broken = await response.text().then(
      () => "ended as if whole",
      () => "broken off",
    );
    expect(broken).toBe("broken off");
    expect(await fake.requests.at(-1)?.closed).toBe("aborted");
    await proxy.settled();
    const [summary] = await store.listTranscripts();
    const transcript = await store.getTranscript(summary?.id ?? "");
    const events = (transcript?.records ?? []).flatMap((record) =>
      record.kind === "event" ? [record.event] : [],
    );
    expect(events.at(-1)).toMatchObject({
      type: "error",
      code: "provider",
      message: expect.stringMatching(/sent nothing for 0\.1 s mid-answer .*timed out/),
    });
    const runId = transcript?.records.at(-1)?.runId ?? "";
    expect((await store.getRunInfo(runId))?.endedAt).not.toBeNull();
  });
});
