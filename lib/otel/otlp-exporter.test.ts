import { afterEach, describe, expect, it, vi } from "vitest";
import { recordRun } from "../replay/testing";
import { liveExportConfig } from "./live-config";
import { exportSpans } from "./live-export";
import { otlpExporter } from "./otlp-exporter";
import { type OtlpReceiver, startOtlpReceiver } from "./testing/otlp-receiver";
import { runSpans } from "./transcript-spans";

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await receiver?.close();
});

describe("otlpExporter", () => {
  it("sends what the settings say, not what the SDK would add from OTEL_EXPORTER_OTLP_* itself", async () => {
    const { store, transcript } = await recordRun({ message: "list the files", dialect: "xml" });
    const runId = transcript.records.find((record) => record.runId !== undefined)?.runId ?? "";
    const spans = await runSpans(store, transcript.meta, runId, {
      content: false,
      redact: (t) => t,
    });
    receiver = await startOtlpReceiver("ok");
    // Another collector's settings in the environment (its credential among them).
    vi.stubEnv("OTEL_EXPORTER_OTLP_HEADERS", "x-other=other-collector-token,authorization=theirs");
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "1");
    vi.stubEnv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip");
    for (const protocol of ["http/json", "http/protobuf"]) {
      const config = liveExportConfig({
        WIRESCOPE_OTLP_ENDPOINT: receiver.url,
        WIRESCOPE_OTLP_HEADERS: "authorization=mine",
        WIRESCOPE_OTLP_PROTOCOL: protocol,
      });
      if (config === null || "error" in config) throw new Error("the settings were refused");
      const exporter = otlpExporter(config);
      expect((await exportSpans(exporter, spans, config.timeoutMs)).code).toBe(0);
      await exporter.shutdown();
    }
    expect(
      receiver.received.map(({ headers }) => [
        headers["content-type"],
        headers.authorization,
        headers["x-other"],
        headers["content-encoding"],
      ]),
    ).toEqual([
      ["application/json", "mine", undefined, undefined],
      ["application/x-protobuf", "mine", undefined, undefined],
    ]);
    expect(receiver.received[0]?.spans).toHaveLength(spans.length);
  });
});
