import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { Store } from "../store/store";
import type { LiveExportConfig } from "./live-config";
import { otlpExporter } from "./otlp-exporter";
import { runSpans } from "./transcript-spans";

/** A finished run to send: the worker reads its records from the store when its turn comes. */
export interface ExportJob {
  store: Pick<Store, "readRecords" | "getRunInfo" | "listRunRecords">;
  transcriptId: string;
  runId: string;
}

export interface LiveExportStats {
  sent: number;
  failed: number;
  dropped: number;
  pending: number;
}

export interface LiveExportOptions {
  /** Applied to all text that goes out, and to every error message logged. */
  redact: (text: string) => string;
  log?: (message: string) => void;
}

/**
 * Sends each finished run as OTLP in the background: `enqueue` only queues the ids and
 * returns at once, so a slow, failing or hung endpoint never slows a run. One run is sent at
 * a time, each with a timeout; when `queueSize` runs are waiting, more are dropped and counted.
 * Errors are logged (redacted, never with header values) and never thrown.
 */
export class LiveExporter {
  private readonly queue: ExportJob[] = [];
  private readonly exporter: SpanExporter;
  private readonly log: (message: string) => void;
  private draining: Promise<void> | undefined;
  private readonly counts = { sent: 0, failed: 0, dropped: 0 };

  constructor(
    private readonly config: LiveExportConfig,
    private readonly options: LiveExportOptions,
  ) {
    this.exporter = otlpExporter(config);
    this.log = options.log ?? ((message) => console.error(message));
  }

  /** `false` when the queue is full and the run was dropped. */
  enqueue(job: ExportJob): boolean {
    if (this.queue.length >= this.config.queueSize) {
      this.counts.dropped += 1;
      // One line for the first drop and then every 100th, not one per run.
      if (this.counts.dropped % 100 === 1)
        this.log(
          `wirescope: OTLP export queue full (${this.config.queueSize} runs); ${this.counts.dropped} run(s) dropped so far.`,
        );
      return false;
    }
    this.queue.push(job);
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return true;
  }

  stats(): LiveExportStats {
    return { ...this.counts, pending: this.queue.length + (this.draining === undefined ? 0 : 1) };
  }

  /** Resolves once everything queued so far was sent or failed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  shutdown(): Promise<void> {
    this.queue.length = 0;
    return this.exporter.shutdown();
  }

  private async drain(): Promise<void> {
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      try {
        const page = await job.store.readRecords(job.transcriptId, { limit: 1 });
        if (page === null) continue; // deleted before its turn came
        const spans = await runSpans(job.store, page.meta, job.runId, {
          content: this.config.content,
          redact: this.options.redact,
        });
        const result = await exportSpans(this.exporter, spans, this.config.timeoutMs);
        if (result.code === ExportResultCode.SUCCESS) this.counts.sent += 1;
        else this.fail(job, result.error);
      } catch (error) {
        this.fail(job, error);
      }
    }
  }

  private fail(job: ExportJob, error: unknown): void {
    this.counts.failed += 1;
    const message = error instanceof Error ? error.message : String(error ?? "unknown error");
    this.log(`wirescope: OTLP export of run ${job.runId} failed: ${this.options.redact(message)}`);
  }
}

/** One export, settled within the timeout (plus a second) even if the exporter never calls back. */
export function exportSpans(
  exporter: SpanExporter,
  spans: ReadableSpan[],
  timeoutMs: number,
): Promise<ExportResult> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () =>
        resolve({
          code: ExportResultCode.FAILED,
          error: new Error(`no answer within ${timeoutMs} ms`),
        }),
      timeoutMs + 1000,
    );
    timer.unref?.();
    exporter.export(spans, (result) => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}
