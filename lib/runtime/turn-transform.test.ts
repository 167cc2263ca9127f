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

  it("a layer over another (joined): each layer's parts in order, the inner end first", async () => {
    const stopped = { value: false };
    const split = transformParts(
      source(["ab", "c"], stopped),
      (part, out) => {
        if (part.type !== "text") out.push(part);
        else for (const char of part.text) out.push({ type: "text", text: char });
      },
      (out) => out.push({ type: "text", text: "end1" }),
    );
    const upper = transformParts(
      split,
      (part, out) => {
        if (part.type === "text" && part.text === "b") return; // none for this one
        out.push(part.type === "text" ? { type: "text", text: part.text.toUpperCase() } : part);
      },
      (out) => out.push({ type: "abort" }),
    );
    expect(await collect(upper)).toEqual([
      { type: "text", text: "A" },
      { type: "text", text: "C" },
      { type: "finish", finishReason: "stop" },
      { type: "text", text: "END1" },
      { type: "abort" },
    ]);
    expect(stopped.value).toBe(true);
  });

  it("rejects and stops the source when the outer of two joined layers throws", async () => {
    const stopped = { value: false };
    const inner = transformParts(source(["a", "b"], stopped), (part, out) => out.push(part));
    const outer = transformParts(inner, (part, out) => {
      if (part.type === "text" && part.text === "b") throw new Error("outer failed");
      out.push(part);
    });
    await expect(collect(outer)).rejects.toThrow("outer failed");
    expect(stopped.value).toBe(true);
  });
});
