import { describe, expect, it } from "vitest";
import { otlpRedactor } from "./install";
import {
  DEFAULT_QUEUE_SIZE,
  DEFAULT_TIMEOUT_MS,
  liveExportConfig,
  otlpHeaderValues,
} from "./live-config";

describe("live export settings", () => {
  it("is off without an endpoint", () => {
    expect(liveExportConfig({})).toBeNull();
    expect(liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "  " })).toBeNull();
  });

  it("adds /v1/traces to a base endpoint and parses headers", () => {
    expect(
      liveExportConfig({
        WIRESCOPE_OTLP_ENDPOINT: "http://collector:4318/",
        WIRESCOPE_OTLP_HEADERS: "authorization=Bearer%20abc,x-team = core",
      }),
    ).toEqual({
      url: "http://collector:4318/v1/traces",
      headers: { authorization: "Bearer abc", "x-team": "core" },
      content: false,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      queueSize: DEFAULT_QUEUE_SIZE,
      protocol: "http/json",
    });
    expect(
      liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "https://x.example/otlp/v1/traces" }),
    ).toMatchObject({
      url: "https://x.example/otlp/v1/traces",
    });
  });

  it("honours the standard OTEL_EXPORTER_OTLP_* names after Wirescope's", () => {
    expect(liveExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toMatchObject({
      url: "http://c:4318/v1/traces",
    });
    expect(
      liveExportConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/custom",
        OTEL_EXPORTER_OTLP_HEADERS: "api-key=1",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
      }),
    ).toMatchObject({ url: "http://c:4318/custom", headers: { "api-key": "1" }, timeoutMs: 2500 });
    expect(
      liveExportConfig({
        WIRESCOPE_OTLP_ENDPOINT: "http://a:1",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://b:2",
      }),
    ).toMatchObject({ url: "http://a:1/v1/traces" });
    expect(
      liveExportConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeNull();
    expect(
      liveExportConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_TRACES_EXPORTER: "none",
      }),
    ).toBeNull();
  });

  it("sends OTLP/JSON unless a protocol variable asks for protobuf; gRPC is named and refused", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(
      liveExportConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }),
    ).toMatchObject({ protocol: "http/protobuf" });
    expect(
      liveExportConfig({
        ...endpoint,
        WIRESCOPE_OTLP_PROTOCOL: "HTTP/JSON",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      }),
    ).toMatchObject({ protocol: "http/json" });
    expect(liveExportConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toEqual({
      error:
        "OTEL_EXPORTER_OTLP_PROTOCOL: must be http/json or http/protobuf (gRPC is not sent); WIRESCOPE_OTLP_PROTOCOL, when set, is used instead.",
    });
  });

  it("hides every header variable's values, also when the settings as a whole are refused", () => {
    const env = {
      WIRESCOPE_OTLP_ENDPOINT: "http://c:4318",
      WIRESCOPE_OTLP_HEADERS: "authorization=Bearer%20mine-0123456789",
      OTEL_EXPORTER_OTLP_HEADERS: "x-other=other-collector-token",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    };
    expect(liveExportConfig(env)).toHaveProperty("error");
    expect(otlpHeaderValues(env)).toEqual(["Bearer mine-0123456789", "other-collector-token"]);
    const redact = otlpRedactor(env);
    expect(redact("sent other-collector-token, then Bearer mine-0123456789")).not.toMatch(
      /other-collector-token|mine-0123456789/,
    );
  });

  it("content only with WIRESCOPE_OTLP_CONTENT=1", () => {
    expect(
      liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "http://c", WIRESCOPE_OTLP_CONTENT: "1" }),
    ).toMatchObject({
      content: true,
    });
  });

  it("names the variable of a bad setting, never a header's value", () => {
    expect(liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "ftp://c" })).toEqual({
      error: "WIRESCOPE_OTLP_ENDPOINT: must be an http(s) URL.",
    });
    expect(liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "not a url" })).toMatchObject({
      error: expect.stringContaining("WIRESCOPE_OTLP_ENDPOINT"),
    });
    const bad = liveExportConfig({
      WIRESCOPE_OTLP_ENDPOINT: "http://c",
      WIRESCOPE_OTLP_HEADERS: "secretvalue42",
    });
    expect(bad).toEqual({
      error: "WIRESCOPE_OTLP_HEADERS: each entry must be name=value with a header name.",
    });
    const badValue = liveExportConfig({
      WIRESCOPE_OTLP_ENDPOINT: "http://c",
      WIRESCOPE_OTLP_HEADERS: "k=%E0%A4%A",
    });
    expect(JSON.stringify(badValue)).not.toContain("%E0");
    expect(
      liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "http://c", WIRESCOPE_OTLP_TIMEOUT_MS: "0" }),
    ).toEqual({
      error: "WIRESCOPE_OTLP_TIMEOUT_MS: must be a whole number of milliseconds from 1 to 600000.",
    });
    expect(
      liveExportConfig({ WIRESCOPE_OTLP_ENDPOINT: "http://c", WIRESCOPE_OTLP_QUEUE: "many" }),
    ).toMatchObject({
      error: expect.stringContaining("WIRESCOPE_OTLP_QUEUE"),
    });
  });
});
