/**
 * The relay on its own: an upstream that breaks off mid-answer ends the client's stream with an
 * error Next does not log with a stack (named `AbortError`), and says so in one line of its own.
 */
import { describe, expect, it } from "vitest";
import { relay } from "./relay";
import type { AnswerBody } from "./upstream-call";

/** An answer body that gives one chunk, then fails as a reset socket does. */
function breakingBody(): AnswerBody {
  let reads = 0;
  return {
    read: async () => {
      reads += 1;
      if (reads === 1) return { done: false, value: new TextEncoder().encode("data: x\n\n") };
      throw Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    },
    cancel: async () => {},
  };
}

describe("relay", () => {
  it("an upstream that breaks off: the client's stream errors as an abort, one line is logged", async () => {
    const lines: string[] = [];
    const ended: unknown[] = [];
    const stream = relay(breakingBody(), {
      call: {
        response: () => {},
        push: () => {},
        fellBehind: () => {},
        end: async (outcome) => {
          ended.push(outcome);
        },
      },
      abort: new AbortController(),
      upstream: "openai",
      idleMs: 60_000,
      done: () => {},
      log: (line) => lines.push(line),
    });
    const reader = stream.getReader();
    expect((await reader.read()).done).toBe(false);
    const failure = await reader.read().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    // Next logs "failed to pipe response" and a stack for any error not named AbortError.
    expect(failure?.name).toBe("AbortError");
    expect(failure?.message).toContain("broke off mid-answer (aborted)");
    expect(lines).toEqual([
      "wirescope: the openai upstream broke off mid-answer (aborted); the agent's answer was broken off too.",
    ]);
    expect(ended).toEqual([{ failure: "The upstream connection broke off mid-answer (aborted)." }]);
  });
});
