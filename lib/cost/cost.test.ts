import { describe, expect, it } from "vitest";
import { formatUsd } from "./format";
import { MAX_PRICE_ENTRIES, parsePrices, parsePricesJson } from "./parse-prices";
import { mergePrices, priceFor } from "./price-table";
import { SHIPPED_PRICES } from "./shipped-prices";

describe("priceFor", () => {
  const table = mergePrices();

  it("finds a model by provider and id, and a dated snapshot by its family", () => {
    expect(priceFor(table, "openai", "gpt-4.1")).toEqual({
      input: 2,
      output: 8,
      cacheRead: 0.5,
      source: "shipped",
    });
    expect(priceFor(table, "anthropic", "claude-haiku-4-5-20251001")?.input).toBe(1);
    expect(priceFor(table, "openai", "gpt-4o-2024-08-06")?.output).toBe(10);
    expect(priceFor(table, "google", "models/gemini-2.5-flash")?.input).toBe(0.3);
  });

  it("ships cache rates below the input rate for reads, and Anthropic's writes above it", () => {
    for (const [key, price] of Object.entries(SHIPPED_PRICES)) {
      if (price.cacheRead !== undefined) expect(price.cacheRead, key).toBeLessThan(price.input);
      if (price.cacheWrite !== undefined)
        expect(price.cacheWrite, key).toBeGreaterThan(price.input);
      // Anthropic's 1-hour cache writes: 2 × input, beside its 5-minute ones at 1.25 ×.
      if (key.startsWith("anthropic/"))
        expect(price.cacheWrite1h, key).toBeCloseTo(2 * price.input, 10);
    }
    expect(SHIPPED_PRICES["anthropic/claude-sonnet-4-5"]).toMatchObject({ cacheRead: 0.3 });
    // Gemini's cached content (the SDK's cacheRead) at a tenth of the input rate.
    expect(SHIPPED_PRICES["google/gemini-2.5-flash"]).toMatchObject({ cacheRead: 0.03 });
  });

  it("never guesses: unknown models, other providers and look-alike ids have no price", () => {
    expect(priceFor(table, "openai", "gpt-4.1-turbo")).toBeNull();
    expect(priceFor(table, "openrouter", "gpt-4.1")).toBeNull();
    expect(priceFor(table, "compat", "openai/gpt-4.1")).toBeNull();
    expect(priceFor(table, "openai", "gpt-6-sol")).toBeNull();
  });

  it("the demo provider costs 0 whatever its model id", () => {
    const free = { input: 0, output: 0, source: "shipped" };
    expect(priceFor(table, "demo", "scripted")).toEqual(free);
    expect(priceFor(table, "demo", "fast")).toEqual(free);
    expect(priceFor(table, "demo", "gpt-4.1")).toEqual(free);
    // Only the demo provider: another provider's unknown model still has no price.
    expect(priceFor(table, "openai", "scripted")).toBeNull();
    expect(priceFor(table, "compat", "demo")).toBeNull();
  });

  it("a provider-wide price (provider/*) applies after the model's own and its family's", () => {
    const merged = mergePrices(
      {},
      { "compat/*": { input: 0, output: 0 }, "compat/big": { input: 5, output: 6 } },
    );
    expect(priceFor(merged, "compat", "llama-3")?.input).toBe(0);
    expect(priceFor(merged, "compat", "big")?.input).toBe(5);
    expect(priceFor(merged, "openai", "gpt-4.1-2025-04-14")?.input).toBe(2);
    expect(priceFor(merged, "openrouter", "llama-3")).toBeNull();
  });

  it("env overrides shipped prices and settings override both", () => {
    const merged = mergePrices(
      { "openai/gpt-4.1": { input: 1, output: 1 }, "compat/llama": { input: 0.1, output: 0.2 } },
      { "openai/gpt-4.1": { input: 3, output: 4 } },
    );
    expect(priceFor(merged, "openai", "gpt-4.1")).toEqual({
      input: 3,
      output: 4,
      source: "settings",
    });
    expect(priceFor(merged, "compat", "llama")?.source).toBe("env");
  });

  it("every shipped key is provider/model with prices at or above 0", () => {
    for (const [key, price] of Object.entries(SHIPPED_PRICES)) {
      expect(key).toMatch(/^[a-z]+\/\S+$/);
      expect(parsePrices({ [key]: price }, "shipped").ok).toBe(true);
    }
  });
});

describe("parsePrices", () => {
  it("reads a table", () => {
    expect(parsePricesJson('{"openai/gpt-x": {"input": 1.5, "output": 6}}', "X")).toEqual({
      ok: true,
      prices: { "openai/gpt-x": { input: 1.5, output: 6 } },
    });
    expect(parsePrices({}, "X")).toEqual({ ok: true, prices: {} });
  });

  it("reads optional prompt-cache rates", () => {
    expect(
      parsePricesJson(
        '{"a/b": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75, "cacheWrite1h": 6}}',
        "X",
      ),
    ).toEqual({
      ok: true,
      prices: {
        "a/b": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 },
      },
    });
  });

  it.each([
    [
      '{"openai/x": {"input": 1, "output": 1, "cacheRead": -1}}',
      '"openai/x".cacheRead must be 0 or more',
    ],
    [
      '{"openai/x": {"input": 1, "output": 1, "cacheWrite": null}}',
      '"openai/x".cacheWrite must be a number',
    ],
    ["not json", "WIRESCOPE_PRICES is not valid JSON"],
    ["[]", "WIRESCOPE_PRICES must be a JSON object"],
    ['{"gpt-4.1": {"input": 1, "output": 1}}', '"gpt-4.1" must be "provider/model"'],
    ['{"openai/x": {"input": -1, "output": 1}}', '"openai/x".input must be 0 or more'],
    ['{"openai/x": {"input": "1", "output": 1}}', '"openai/x".input must be a number'],
    ['{"openai/x": {"input": 1}}', '"openai/x".output must be a number'],
    ['{"openai/x": {"input": 1, "output": 1, "cached": 1}}', 'unexpected field "cached"'],
    ['{"openai/x": 3}', '"openai/x" must be { "input": number, "output": number }'],
    ['{"openai/x": {"input": 1e9, "output": 1}}', '"openai/x".input must be at most'],
  ])("refuses %s, naming the field", (text, message) => {
    const parsed = parsePricesJson(text, "WIRESCOPE_PRICES");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });

  it("never quotes the text it could not parse (a wrong file named may hold keys)", () => {
    const secret = "sk-PLANTEDopenai0123456789abcdefXYZ";
    for (const text of [`OPENAI_API_KEY=${secret}`, `{"a/b": ${secret}}`, `{${secret}`]) {
      const parsed = parsePricesJson(text, "WIRESCOPE_PRICES");
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toMatch(/^WIRESCOPE_PRICES is not valid JSON/);
        expect(parsed.error).not.toMatch(/OPENAI|sk-/);
      }
    }
  });

  it("reads a bounded number of entries", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_PRICE_ENTRIES + 1 }, (_, i) => [`p/m${i}`, { input: 0, output: 0 }]),
    );
    const parsed = parsePrices(many, "prices");
    expect(parsed).toEqual({ ok: false, error: expect.stringContaining("at most 500") });
  });
});

describe("formatUsd", () => {
  it.each([
    [0, "$0.00"],
    [0.00004, "<$0.0001"],
    // A floating-point sum a hair under a figure shows as the figure (rounded to 1e-10 first).
    [0.0000999999999999, "$0.0001"],
    [0.0066, "$0.0066"],
    [12.345, "$12.35"],
    [Number.NaN, "–"],
  ])("%s → %s", (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });
});
