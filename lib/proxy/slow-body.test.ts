/** A request body trickled to the proxy (slowloris): refused with 408, nothing forwarded. */
import { describe, expect, it } from "vitest";
import type { Capture } from "./capture";
import { proxyRequest } from "./proxy";

describe("a request body that stops arriving", () => {
  it("gets 408 naming the body, and nothing goes upstream", async () => {
    let forwarded = 0;
    const upstream: typeof fetch = async () => {
      forwarded++;
      return new Response("{}");
    };
    const capture: Capture = { begin: () => undefined };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"model":"m",'));
      },
    });
    const response = await proxyRequest(
      new Request("http://127.0.0.1/proxy/openai/v1/chat/completions", {
        method: "POST",
        body,
        duplex: "half",
      } as RequestInit),
      "openai",
      {
        env: { OPENAI_BASE_URL: "http://upstream.invalid/v1" },
        capture,
        maxBodyBytes: 1024,
        bodyIdleMs: 20,
        fetch: upstream,
      },
    );
    expect(response.status).toBe(408);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^body: nothing arrived for 0.02 s \(WIRESCOPE_BODY_IDLE_TIMEOUT_S\)/,
    );
    expect(forwarded).toBe(0);
  });
});
