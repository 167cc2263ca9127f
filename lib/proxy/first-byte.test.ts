/**
 * Recording never stands between the agent and its answer: the upstream call goes out, and
 * the answer comes back to the agent, before the request is even read for the recording.
 */
import { describe, expect, it } from "vitest";
import type { Capture, CapturedCall } from "./capture";
import { proxyRequest } from "./proxy";

describe("first byte", () => {
  it("forwards and answers before the recording begins; the recording then sees every chunk in order", async () => {
    const order: string[] = [];
    const pushed: string[] = [];
    let ended: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const capture: Capture = {
      begin(): CapturedCall {
        order.push("begin");
        return {
          transcriptId: "t",
          response: (status) => order.push(`response ${status}`),
          push: (bytes) => pushed.push(new TextDecoder().decode(bytes)),
          fellBehind: () => order.push("fell behind"),
          end: async () => {
            order.push("end");
            ended();
          },
        };
      },
    };
    const upstream: typeof fetch = async () => {
      order.push("fetch");
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const text of ["data: a\n\n", "data: b\n\n"])
            controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const request = new Request("http://127.0.0.1/proxy/openai/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [] }),
    });
    const response = await proxyRequest(request, "openai", {
      env: { OPENAI_BASE_URL: "http://upstream.invalid/v1" },
      capture,
      maxBodyBytes: 1024,
      fetch: upstream,
    });
    order.push("answered");
    expect(await response.text()).toBe("data: a\n\ndata: b\n\n");
    await finished;
    expect(order).toEqual(["fetch", "answered", "begin", "response 200", "end"]);
    expect(pushed.join("")).toBe("data: a\n\ndata: b\n\n");
  });
});
