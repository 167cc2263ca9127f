import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { millisToHrTime } from "@opentelemetry/core";
import { type Resource, resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  type IdGenerator,
  type ReadableSpan,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ERROR_TYPE } from "./conventions";
import type { PlannedSpan } from "./span-plan";

/** The longest attribute value sent (characters); longer content is cut by the SDK. */
export const ATTRIBUTE_VALUE_LIMIT = 128 * 1024;
/** Span events (errors, interrupts) kept per span. */
export const EVENT_COUNT_LIMIT = 1000;

const SCOPE_NAME = "wirescope";
const SCOPE_VERSION = "1";

export function wirescopeResource(): Resource {
  return resourceFromAttributes({ "service.name": "wirescope" });
}

/**
 * Hands the ids the plan chose to the tracer: the SDK asks for a span id (and a trace id for
 * a root) once per `startSpan`, synchronously, so they are set just before each call.
 */
class PlannedIds implements IdGenerator {
  traceId = "";
  spanId = "";
  generateTraceId(): string {
    return this.traceId;
  }
  generateSpanId(): string {
    return this.spanId;
  }
}

/** Keeps every ended span, in the order they end. */
class Collector implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Planned spans (parents first) made into SDK spans with the OpenTelemetry tracer: their
 * recorded times, the plan's ids, attributes, events and status. Returns them in plan order.
 */
export function sdkSpans(
  plan: readonly PlannedSpan[],
  resource: Resource = wirescopeResource(),
): ReadableSpan[] {
  const ids = new PlannedIds();
  const collector = new Collector();
  const provider = new BasicTracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: [collector],
    spanLimits: {
      attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT,
      attributeCountLimit: 128,
      eventCountLimit: EVENT_COUNT_LIMIT,
    },
  });
  const tracer = provider.getTracer(SCOPE_NAME, SCOPE_VERSION);
  const contexts = new Map<string, Context>();
  const open: { span: Span; planned: PlannedSpan }[] = [];
  for (const planned of plan) {
    const parent = planned.parent === undefined ? ROOT_CONTEXT : contexts.get(planned.parent);
    if (parent === undefined)
      throw new Error(`span plan: "${planned.key}" comes before its parent "${planned.parent}"`);
    ids.traceId = planned.traceId;
    ids.spanId = planned.spanId;
    const span = tracer.startSpan(
      planned.name,
      {
        kind: planned.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: millisToHrTime(planned.startMs),
        attributes: planned.attributes,
      },
      parent,
    );
    for (const event of planned.events)
      span.addEvent(event.name, event.attributes, millisToHrTime(event.timeMs));
    if (planned.error !== undefined) {
      span.setAttribute(ERROR_TYPE, planned.error.type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: planned.error.message });
    }
    contexts.set(planned.key, trace.setSpan(ROOT_CONTEXT, span));
    open.push({ span, planned });
  }
  for (const { span, planned } of open) span.end(millisToHrTime(planned.endMs));
  return collector.spans;
}
