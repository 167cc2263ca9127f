import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEnvPrices } from "./prices";

describe("readEnvPrices", () => {
  it("is empty without WIRESCOPE_PRICES", () => {
    expect(readEnvPrices({})).toEqual({ prices: {}, error: null });
  });

  it("reads JSON from the variable or from a file it names", async () => {
    const json = '{"compat/llama-3": {"input": 0.1, "output": 0.2}}';
    expect(readEnvPrices({ WIRESCOPE_PRICES: json }).prices).toEqual({
      "compat/llama-3": { input: 0.1, output: 0.2 },
    });
    const dir = await mkdtemp(join(tmpdir(), "wirescope-prices-"));
    const file = join(dir, "prices.json");
    await writeFile(file, json);
    expect(readEnvPrices({ WIRESCOPE_PRICES: file })).toEqual({
      prices: { "compat/llama-3": { input: 0.1, output: 0.2 } },
      error: null,
    });
  });

  it("reports a bad value naming the field, and a missing file, without throwing", () => {
    const bad = readEnvPrices({ WIRESCOPE_PRICES: '{"openai/x": {"input": -2, "output": 1}}' });
    expect(bad).toEqual({ prices: {}, error: expect.stringContaining('"openai/x".input') });
    const missing = readEnvPrices({ WIRESCOPE_PRICES: "/nonexistent/prices.json" });
    expect(missing.error).toContain("could not be read (ENOENT)");
  });

  it("refuses a FIFO or a device instead of waiting on it or reading it without end", async () => {
    const fifo = join(await mkdtemp(join(tmpdir(), "wirescope-prices-")), "prices.fifo");
    execFileSync("mkfifo", [fifo]);
    // Without the check, opening the FIFO blocks until this writer comes, then reads "{}".
    const writer = spawn("sh", ["-c", `sleep 1; printf '{}' > '${fifo}'`], { stdio: "ignore" });
    try {
      expect(readEnvPrices({ WIRESCOPE_PRICES: fifo }).error).toContain("not a regular file");
    } finally {
      writer.kill("SIGKILL");
    }
    expect(readEnvPrices({ WIRESCOPE_PRICES: "/dev/zero" }).error).toContain("not a regular file");
  });
});
