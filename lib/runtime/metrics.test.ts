import { describe, expect, it } from "vitest";
import { tokenSourceOf } from "./metrics";

describe("tokenSourceOf", () => {
  it("is the provider's when it reported both counts", () => {
    expect(tokenSourceOf("openai", { inputTokens: 10, outputTokens: 2 })).toBe("provider");
  });
  it("is an estimate when it reported none, mixed when one", () => {
    expect(tokenSourceOf("compat", {})).toBe("estimate");
    expect(tokenSourceOf("compat", { inputTokens: 10 })).toBe("mixed");
  });
  it("is an estimate for the demo model and replays, whose usage is itself estimated", () => {
    expect(tokenSourceOf("demo", { inputTokens: 10, outputTokens: 2 })).toBe("estimate");
    expect(tokenSourceOf("replay", { inputTokens: 10, outputTokens: 2 })).toBe("estimate");
  });
});
