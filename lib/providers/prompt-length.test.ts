import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { promptJsonLength } from "./prompt-length";

const system = 'You write "xml".\n\tTools: é, 😀, \u2028, \\ and </script>';

describe("promptJsonLength", () => {
  it.each<[string, LanguageModelV3Prompt]>([
    ["no message", []],
    ["a system message", [{ role: "system", content: system }]],
    [
      "a conversation",
      [
        { role: "system", content: system },
        { role: "user", content: [{ type: "text", text: 'list "the" files' }] },
        { role: "assistant", content: [{ type: "text", text: "<execute>[]</execute>" }] },
        { role: "user", content: [{ type: "text", text: "<results>[]</results>" }] },
      ],
    ],
    [
      "a system message with provider options",
      [{ role: "system", content: system, providerOptions: { demo: { cache: true } } }],
    ],
  ])("is JSON.stringify's length for %s, asked twice", (_name, prompt) => {
    expect(promptJsonLength(prompt)).toBe(JSON.stringify(prompt).length);
    expect(promptJsonLength(prompt)).toBe(JSON.stringify(prompt).length);
  });
});
