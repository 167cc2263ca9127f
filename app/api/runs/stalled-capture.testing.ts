/**
 * For the route tests: a streamed chat call through the capture proxy to the fake provider's
 * `stall` model, once it is live (its first bytes read): the captured run as the registry
 * lists it, the reader of the client's answer, the proxy, and `close` for all of it.
 */
import { startFakeProviderServer } from "@/lib/providers/testing/fake-provider-server";
import { type ProxyServer, stalledChat, startProxyServer } from "@/lib/proxy/testing";
import { runRegistry } from "@/lib/server/run-registry";
import type { Store } from "@/lib/store";

export interface StalledCapture {
  runId: string;
  transcriptId: string;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  proxy: ProxyServer;
  close(): Promise<void>;
}

export async function stalledCapture(store: Store): Promise<StalledCapture> {
  const fake = await startFakeProviderServer({ chunkChars: 5 });
  const proxy = await startProxyServer({ env: { OPENAI_BASE_URL: `${fake.url}/v1` }, store });
  const close = async () => {
    await proxy.close();
    await fake.close();
  };
  try {
    const before = new Set(
      runRegistry()
        .active()
        .map((run) => run.runId),
    );
    const response = await stalledChat(proxy.url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    for (;;) {
      const captured = runRegistry()
        .active()
        .find((run) => !before.has(run.runId));
      if (captured !== undefined)
        return { runId: captured.runId, transcriptId: captured.transcriptId, reader, proxy, close };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } catch (error) {
    await close();
    throw error;
  }
}
