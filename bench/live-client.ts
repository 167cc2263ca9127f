/**
 * The live-run benches' client side: a run's start request and reading its SSE frames
 * (`live-runs.ts` against its own server, `live-runs-external.ts` against a running one).
 */
import { DEMO_MESSAGES } from "./demo-messages";

const PACE_MS = 15;

export const clock = () => performance.timeOrigin + performance.now();

/** Reads an SSE body, calling `onFrame(index, data, at)` for each record (the `run` record is 0). */
export async function readFrames(
  response: Response,
  onFrame: (index: number, data: string, at: number) => void,
): Promise<number> {
  if (response.body === null) throw new Error(`no body (${response.status})`);
  const decoder = new TextDecoder();
  let buffer = "";
  let index = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value: bytes } = await reader.read();
    if (done) break;
    const at = clock();
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      onFrame(index++, buffer.slice(6, end), at);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
  return index;
}

/** A run's start request: the bench's messages in turn, or `message` for every run. */
export const startBody = (index: number, message?: string) =>
  JSON.stringify({
    message: message ?? DEMO_MESSAGES[index % DEMO_MESSAGES.length],
    dialect: "xml",
    model: { provider: "demo", settings: { paceMs: PACE_MS } },
  });

/** The value at fraction `p` of `values` (NaN for none). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}
