/**
 * Test helper: an OTLP/HTTP trace receiver on a free local port. It decodes each OTLP/JSON
 * `ExportTraceServiceRequest` it gets into flat spans, so tests check the span tree a real
 * collector would see; an OTLP/protobuf one is kept as it came (`body`), with no spans. `mode` makes it answer 200, fail with 500, or never answer (a hung
 * endpoint). Not used by product code.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type AttributeJson = string | number | boolean | AttributeJson[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeJson>;
  events: { name: string; timeMs: number; attributes: Record<string, AttributeJson> }[];
  status: { code: number; message?: string };
  resource: Record<string, AttributeJson>;
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  url: string;
  mode: "ok" | "fail" | "hang";
  received: ReceivedRequest[];
  /** Requests that arrived, answered or not. */
  arrivals: number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(mode: OtlpReceiver["mode"] = "ok"): Promise<OtlpReceiver> {
  const hung: ServerResponse[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: OtlpReceiver = {
    url: "",
    mode,
    received: [],
    arrivals: 0,
    waitFor: (count) =>
      new Promise((resolve) => {
        if (receiver.arrivals >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        for (const response of hung) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.arrivals += 1;
      const body = Buffer.concat(chunks);
      const json = request.headers["content-type"]?.includes("json") === true;
      try {
        receiver.received.push({
          path: request.url ?? "",
          headers: request.headers,
          body,
          spans: json ? decodeOtlpJson(JSON.parse(body.toString("utf8"))) : [],
        });
      } catch (error) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: String(error) }));
        return;
      }
      for (const waiter of waiters.filter((entry) => receiver.arrivals >= entry.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (receiver.mode === "hang") {
        hung.push(response);
        return;
      }
      if (receiver.mode === "fail") {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end("collector down");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

/** The spans of an OTLP/JSON trace request, flattened, with times in ms and attributes as values. */
export function decodeOtlpJson(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  const request = body as {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: { spans?: Record<string, unknown>[] }[];
    }[];
  };
  if (!Array.isArray(request.resourceSpans))
    throw new Error("not an OTLP trace request: no resourceSpans");
  for (const resourceSpans of request.resourceSpans) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const parent = span.parentSpanId as string | undefined;
        spans.push({
          traceId: span.traceId as string,
          spanId: span.spanId as string,
          ...(parent === undefined || parent === "" ? {} : { parentSpanId: parent }),
          name: span.name as string,
          kind: span.kind as number,
          startMs: nanosToMs(span.startTimeUnixNano),
          endMs: nanosToMs(span.endTimeUnixNano),
          attributes: attributesOf(span.attributes as KeyValue[] | undefined),
          events: ((span.events as Record<string, unknown>[] | undefined) ?? []).map((event) => ({
            name: event.name as string,
            timeMs: nanosToMs(event.timeUnixNano),
            attributes: attributesOf(event.attributes as KeyValue[] | undefined),
          })),
          status: (span.status as { code: number; message?: string } | undefined) ?? { code: 0 },
          resource,
        });
      }
    }
  }
  return spans;
}

function nanosToMs(value: unknown): number {
  if (typeof value === "string") return Number(BigInt(value) / 1000n) / 1000;
  if (typeof value === "number") return value / 1e6;
  throw new Error(`not a time: ${JSON.stringify(value)}`);
}

function attributesOf(list: KeyValue[] | undefined): Record<string, AttributeJson> {
  const result: Record<string, AttributeJson> = {};
  for (const { key, value } of list ?? []) result[key] = decodeValue(value);
  return result;
}

function decodeValue(value: AnyValue): AttributeJson {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return null;
}
