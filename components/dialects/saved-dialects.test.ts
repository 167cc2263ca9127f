import { describe, expect, it } from "vitest";
import { parseDefinition } from "@/lib/protocol/definition-schema";
import { decode } from "./saved-dialects";

const valid = {
  name: "reasoner",
  family: "hermes",
  think: ["<r>", "</r>"],
  call: ["<t>", "</t>"],
  results: ["<o>", "</o>"],
};

describe("decode (saved definitions are untrusted text)", () => {
  it("keeps valid entries and skips invalid ones", () => {
    const raw = JSON.stringify([valid, { ...valid, name: "bad", call: ["<r", "</t>"] }, 42]);
    expect(decode(raw, parseDefinition)).toEqual([valid]);
  });

  it.each([null, "not json", '{"a": 1}'])("reads %j as nothing saved", (raw) => {
    expect(decode(raw, parseDefinition)).toEqual([]);
  });
});
