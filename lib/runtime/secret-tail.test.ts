import { describe, expect, it } from "vitest";
import { jsonWebTokenTail, patternTail, type SecretTail, SecretTails } from "./secret-tail";

const KEY = "wsk-Configured0Key0Value42";
const tail = (pattern: Parameters<typeof patternTail>[0]) => patternTail(pattern) as SecretTail;

/** Each chunk through `swallow` until the secret ends; the rest after it, or the end's. */
function swallowAll(tails: SecretTails, chunks: readonly string[]): string {
  for (const [index, chunk] of chunks.entries()) {
    const { rest } = tails.swallow(chunk);
    if (tails.done) return rest + chunks.slice(index + 1).join("");
  }
  return tails.end();
}

describe("SecretTails", () => {
  it("ends a token where a configured value starts, split over chunks anywhere", () => {
    const text = `AAAA${KEY} ok`;
    for (let at = 0; at <= text.length; at++) {
      const tails = new SecretTails([tail("vendorToken")], [KEY]);
      // The value's first characters (`wsk`) are token characters: taken alone, they would go.
      expect(swallowAll(tails, [text.slice(0, at), text.slice(at)])).toBe(`${KEY} ok`);
    }
  });

  it("gives back what only looked like a value's start once the text says it is not", () => {
    const tails = new SecretTails([tail("vendorToken")], [KEY]);
    expect(swallowAll(tails, ["AAAAwsk", "-Conf ok"])).toBe("-Conf ok");
    // At the end of the text, the tails take what waited: nothing of it is left out.
    expect(new SecretTails([tail("vendorToken")], [KEY]).swallow("AAwsk-Co").rest).toBe("");
    const ending = new SecretTails([tail("vendorToken")], [KEY]);
    ending.swallow("AAwsk-Co");
    expect(ending.end()).toBe("-Co");
  });

  it("swallows a value a `?key=` match takes as `[redacted]`, and goes on after it", () => {
    const tails = new SecretTails([tail("keyParameter")], [KEY]);
    expect(swallowAll(tails, [`AAA${KEY.slice(0, 9)}`, `${KEY.slice(9)}BBB&alt=sse`])).toBe(
      "&alt=sse",
    );
  });

  it("leaves out dots before a value, as a credential's match does", () => {
    const tails = new SecretTails([tail("bearer")], [KEY]);
    expect(swallowAll(tails, ["abc..", `${KEY} x`])).toBe(`..${KEY} x`);
  });

  it("gives back the dot a JWT stopping short of its third part ends in", () => {
    expect(swallowAll(new SecretTails([jsonWebTokenTail(1)]), ["abc.", " Next"])).toBe(". Next");
    expect(swallowAll(new SecretTails([jsonWebTokenTail(1)]), ["abc.sig", ". Next"])).toBe(
      ". Next",
    );
  });
});
