import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory-store";
import { type Capture, createCapture } from "./capture";
import { proxyRequest } from "./proxy";
import { createRecordingQueue } from "./recording-queue";
import { storeSink } from "./sink";

const delta = (text: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;

/**
 * An upstream that streams faster than its recording runs: the recording queue here drains
 * only when the test says so, as a busy server's would fall behind. The agent's answer must
 * arrive whole, and the bytes waiting for recording must stay bounded.
 */
describe("a recording that falls behind its answer", () => {
  it("stops queueing past the backlog bound, records why, and the client still gets every byte", async () => {
    const drains: (() => void)[] = [];
    const queue = createRecordingQueue({ schedule: (drain) => drains.push(drain) });
    const store = createMemoryStore();
    const recorder = createCapture({
      sink: storeSink(store, (message, error) => {
        throw new Error(`${message}: ${String(error)}`);
      }),
      secrets: [],
      maxRecordChars: 1024 * 1024,
    });
    let ended: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const capture: Capture = {
      begin(call) {
        const captured = recorder.begin(call);
        return captured && { ...captured, end: (outcome) => captured.end(outcome).finally(ended) };
      },
    };
    const frames = Array.from({ length: 400 }, (_, index) => delta(`word${index} `));
    const upstream: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const frame of frames) controller.enqueue(new TextEncoder().encode(frame));
            controller.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    const response = await proxyRequest(
      new Request("http://127.0.0.1/proxy/openai/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", "x-wirescope-dialect": "xml" },
        body: JSON.stringify({
          model: "m",
          stream: true,
          messages: [{ role: "user", content: "hi" }],
        }),
      }),
      "openai",
      {
        env: { OPENAI_BASE_URL: "http://upstream.invalid/v1" },
        capture,
        maxBodyBytes: 1024,
        fetch: upstream,
        recording: queue,
        maxRecordingBacklogBytes: 4096,
      },
    );
    // The client reads the whole answer before any recording has run.
    expect(await response.text()).toBe(frames.join(""));
    // Now the recording catches up, its writes included.
    let recorded = false;
    void finished.then(() => {
      recorded = true;
    });
    while (!recorded) {
      while (drains.length > 0) (drains.shift() as () => void)();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }

    const [summary] = await store.listTranscripts({});
    const transcript = await store.getTranscript(summary?.id ?? "");
    const records = transcript?.records ?? [];
    const text = records.map((record) => (record.kind === "chunk" ? record.text : "")).join("");
    const errors = records.flatMap((record) =>
      record.kind === "event" && record.event.type === "error" ? [record.event] : [],
    );
    // What was recorded is the start of the answer, within the bound, and the cut is explained.
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(4096);
    expect("word0 word1 ".startsWith(text.slice(0, 12))).toBe(true);
    expect(errors).toEqual([
      expect.objectContaining({
        code: "internal",
        message: expect.stringMatching(/^Recording fell more than 4096 bytes behind the answer/),
      }),
    ]);
  });
});
