import { describe, expect, it } from "vitest";
import {
  initialTheme,
  PREFERENCES_VERSION,
  parsePreferences,
  serializePreferences,
  THEME_BOOT_SCRIPT,
} from "./preferences";

const stored = (values: unknown, version: unknown = PREFERENCES_VERSION) =>
  JSON.stringify({ version, values });

describe("preferences", () => {
  it("round-trips every field", () => {
    const preferences = {
      dialect: "delimiter",
      provider: "openai",
      modelId: "gpt-x",
      system: "Be brief.",
      tools: ["read", "list"],
      temperature: 0.2,
      maxOutputTokens: 512,
      paceMs: 0,
      theme: "light" as const,
      debugOpen: false,
      debugTab: "events" as const,
      debugShare: 0.42,
      sidebarOpen: false,
      rawWhitespace: true,
      draft: "half a thought",
      prices: { "compat/llama": { input: 0.1, output: 0.2 } },
    };
    expect(parsePreferences(serializePreferences(preferences))).toEqual(preferences);
  });

  it("does not store a key typed into the draft or the system prompt", () => {
    const key = "sk-proj-4f9Qx2LmZ8rT1vB7nK3wY6";
    const saved = serializePreferences({
      draft: `use ${key} for the call`,
      system: `You are terse. OPENAI_API_KEY=${key}`,
      modelId: "gpt-4.1",
    });
    expect(saved).not.toContain("4f9Qx2LmZ8rT1vB7nK3wY6");
    expect(parsePreferences(saved)).toEqual({
      draft: "use [redacted] for the call",
      system: "You are terse. OPENAI_API_KEY=[redacted]",
      modelId: "gpt-4.1",
    });
  });

  it("keeps no part of a key reaching across where a huge draft is cut", () => {
    const key = "AKIAABCDEFGHIJKLMNOP";
    const draft = `${"w".repeat(99_989)} ${key} and more`;
    const saved = serializePreferences({ draft });
    expect(saved.includes("AKIAABCDEF")).toBe(false);
    expect(parsePreferences(saved).draft?.length).toBe(100_000);
  });

  it("stores no more of a huge draft or system prompt than it reads back", () => {
    const huge = "word ".repeat(600_000);
    const saved = serializePreferences({ draft: huge, system: huge });
    // What is read back is cut to 100,000 characters: storing 3 MB of it filled the quota.
    expect(saved.length).toBeLessThan(250_000);
    expect(parsePreferences(saved)).toEqual({
      draft: huge.slice(0, 100_000),
      system: huge.slice(0, 100_000),
    });
  });

  it("keeps nulls that mean 'the default'", () => {
    const values = { system: null, tools: null, temperature: null, maxOutputTokens: null };
    expect(parsePreferences(stored(values))).toEqual(values);
  });

  it("gives {} for garbage, another version or no value", () => {
    for (const text of [null, "", "not json", "42", "null", "[]", stored({ theme: "light" }, 99)])
      expect(parsePreferences(text)).toEqual({});
  });

  it("drops only the bad fields", () => {
    const values = {
      theme: "purple",
      debugShare: 3,
      paceMs: -1,
      temperature: "hot",
      tools: [1, 2],
      sidebarOpen: "yes",
      rawWhitespace: "on",
      debugTab: "raw",
      draft: 7,
      dialect: "",
      modelId: "m",
      extra: "ignored",
      prices: { "demo/scripted": { input: -1, output: 0 } },
    };
    expect(parsePreferences(stored(values))).toEqual({ debugTab: "raw", modelId: "m" });
  });

  it("cuts an enormous draft instead of keeping it whole", () => {
    const draft = "x".repeat(200_000);
    expect(parsePreferences(stored({ draft })).draft).toHaveLength(100_000);
  });

  it("picks the first theme from the choice, else the OS", () => {
    expect(initialTheme(null, true)).toBe("light");
    expect(initialTheme(null, false)).toBe("dark");
    expect(initialTheme(stored({ theme: "dark" }), true)).toBe("dark");
    expect(initialTheme("garbage", true)).toBe("light");
  });

  it("boot script agrees with initialTheme", () => {
    const cases: [string | null, boolean][] = [
      [null, true],
      [null, false],
      [stored({ theme: "dark" }), true],
      [stored({ theme: "light" }), false],
      [stored({ theme: "light" }, 2), false],
      [stored({ theme: 5 }), true],
      ["{broken", false],
    ];
    for (const [text, prefersLight] of cases) {
      const dataset: Record<string, string> = {};
      const run = new Function("localStorage", "matchMedia", "document", THEME_BOOT_SCRIPT);
      run({ getItem: () => text }, () => ({ matches: prefersLight }), {
        documentElement: { dataset },
      });
      expect(dataset.theme, `${text} ${prefersLight}`).toBe(initialTheme(text, prefersLight));
    }
  });
});
