import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "./route";

/** `problems` is what `npm start` reads to refuse a setting it cannot use (scripts/start.mjs). */
describe("GET /api/config: the settings the server cannot use", () => {
  afterEach(() => vi.unstubAllEnvs());

  const problems = async () =>
    (
      (await (await GET(new Request("http://localhost/api/config"))).json()) as {
        problems: string[];
      }
    ).problems;

  it("names none when every setting is unset", async () => {
    vi.stubEnv("WIRESCOPE_MAX_LIVE_RUNS", undefined);
    vi.stubEnv("WIRESCOPE_OTLP_ENDPOINT", undefined);
    expect(await problems()).toEqual([]);
  });

  it("names a numeric setting that is not a number it takes, and a bad OTLP setting", async () => {
    vi.stubEnv("WIRESCOPE_MAX_LIVE_RUNS", "lots");
    vi.stubEnv("WIRESCOPE_OTLP_ENDPOINT", "http://127.0.0.1:4318");
    vi.stubEnv("WIRESCOPE_OTLP_QUEUE", "0");
    expect(await problems()).toEqual([
      expect.stringMatching(/^WIRESCOPE_MAX_LIVE_RUNS: must be a whole number/),
      "WIRESCOPE_OTLP_QUEUE: must be a whole number from 1 to 10000.",
    ]);
  });
});
