import { describe, expect, it } from "vitest";
import type { TurnPart } from "./model-turn";
import { transformParts } from "./turn-transform";

function source(texts: string[], stopped: { value: boolean }): AsyncIterable<TurnPart> {
  return (async function* () {
    try {
      for (const text of texts) yield { type: "text", text };
      yield { type: "finish", finishReason: "stop" };
    } finally {
      stopped.value = true;
    }
  })();
}

async function collect(parts: AsyncIterable<TurnPart>): Promise<TurnPart[]> {
  const collected: TurnPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe("transformParts", () => {
  it("hands on none, one or several parts for each, then what the end adds", async () => {
    const stopped = { value: false };
    const parts = transformParts(
      source(["a", "", "bc"], stopped),
      (part, out) => {
        if (part.type !== "text") out.push(part);
        else for (const char of part.text) out.push({ type: "text", text: char.toUpperCase() });
      },
      (out) => out.push({ type: "abort" }),
    );
    expect(await collect(parts)).toEqual([
      { type: "text", text: "A" },
      { type: "text", text: "B" },
      { type: "text", text: "C" },
      { type: "finish", finishReason: "stop" },
      { type: "abort" },
    ]);
    expect(stopped.value).toBe(true);
  });

  it("stops its source when the reader stops early", async () => {
    const stopped = { value: false };
    const parts = transformParts(source(["a", "b", "c"], stopped), (part, out) => out.push(part));
    for await (const part of parts) {
      expect(part).toEqual({ type: "text", text: "a" });
      break;
    }
    expect(stopped.value).toBe(true);
  });

  it("rejects and stops its source when a step throws", async () => {
    const stopped = { value: false };
    const parts = transformParts(source(["a", "b"], stopped), (part, out) => {
      if (part.type === "text" && part.text === "b") throw new Error("step failed");
      out.push(part);
    });
    await expect(collect(parts)).rejects.toThrow("step failed");
    expect(stopped.value).toBe(true);
  });
});
