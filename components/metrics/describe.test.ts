import { describe, expect, it } from "vitest";
import type { TurnMetrics } from "@/lib/metrics";
import { describeCache, describeTurnCost } from "./describe";

/** A turn of 10,000 input tokens (1,000 read from the cache, 3,000 written, 2,000 for an hour). */
const turn = {
  tokensIn: 10_000,
  tokensOut: 500,
  cacheRead: 1_000,
  cacheWrite: 3_000,
  cacheWrite1h: 2_000,
  cost: {
    usd: 0,
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, source: "shipped" as const },
  },
} as unknown as TurnMetrics;

describe("the cost tooltip", () => {
  it("names each kind of input at its own rate, 1-hour cache writes apart (2× input without a rate)", () => {
    expect(describeTurnCost(turn)).toBe(
      "6,000 in × $3 + 1,000 cache read × $0.3 + 1,000 cache write × $3.75 + 2,000 1-hour cache write × $6 + 500 out × $15 per million (shipped)",
    );
  });

  it("says how much of the cache written was for an hour", () => {
    expect(describeCache(turn)).toBe(
      "Of the input: 1,000 read from the prompt cache, 3,000 written to it (2,000 for an hour).",
    );
    expect(describeCache({ ...turn, cacheWrite1h: 0 })).toBe(
      "Of the input: 1,000 read from the prompt cache, 3,000 written to it.",
    );
  });
});
