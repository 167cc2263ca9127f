/**
 * A captured transcript's title is cut from the start of the agent's last user message only:
 * cutting reads graphemes, and a whole 30 MB message took 7 s of the server's one event loop
 * (every other agent's first byte waiting). It is redacted before it is cut: a key cut first
 * is not the key redaction looks for.
 */
import { describe, expect, it, vi } from "vitest";
import type { CapturedTurn } from "./sink";

const cutInputs: number[] = [];
vi.mock("../store/meta", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../store/meta")>();
  return {
    ...actual,
    cutTitle: (title: string, max: number) => {
      cutInputs.push(title.length);
      return actual.cutTitle(title, max);
    },
  };
});

const { createCapture } = await import("./capture");

function titleFor(content: string, headers: Headers): string {
  const turns: CapturedTurn[] = [];
  const capture = createCapture({
    sink: { startTurn: (turn) => turns.push(turn), append() {}, finishTurn: async () => {} },
    secrets: [],
    maxRecordChars: 1 << 20,
  });
  const call = capture.begin({
    upstream: { name: "openai", format: "openai", baseURL: "http://127.0.0.1:9/v1" },
    body: { model: "m", messages: [{ role: "user", content }] },
    headers,
    dialect: "xml",
    stop() {},
  } as Parameters<typeof capture.begin>[0]);
  call?.response(200, "application/json");
  call?.push(
    new TextEncoder().encode(
      JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "ok" } }] }),
    ),
  );
  void call?.end();
  return turns[0]?.create?.title ?? "";
}

describe("a captured transcript's title", () => {
  it("reads only the start of a huge message, and still says what it starts with", async () => {
    const turns: CapturedTurn[] = [];
    const capture = createCapture({
      sink: { startTurn: (turn) => turns.push(turn), append() {}, finishTurn: async () => {} },
      secrets: [],
      maxRecordChars: 1 << 20,
    });
    const content = `  Summarize   this\n\nlog: ${"line of the log ".repeat(200_000)}`;
    const call = capture.begin({
      upstream: { name: "openai", format: "openai", baseURL: "http://127.0.0.1:9/v1" },
      body: { model: "m", messages: [{ role: "user", content }] },
      headers: new Headers(),
      dialect: "xml",
      stop() {},
    } as Parameters<typeof capture.begin>[0]);
    call?.response(200, "application/json");
    call?.push(
      new TextEncoder().encode(
        JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "ok" } }] }),
      ),
    );
    await call?.end();
    const title = turns[0]?.create?.title ?? "";
    expect(title).toMatch(/^Summarize this log: line of the log line of .*…$/);
    expect(Math.max(...cutInputs)).toBeLessThanOrEqual(4096);
  });

  it("never holds the start of a key the agent sent in a header and pasted in its message", () => {
    // Lowercase letters only: no credential pattern knows it; only the header says it is one.
    const token = `customauth${"qwertyuiopasdfghjklzxcvbnm".repeat(4)}`;
    const title = titleFor(
      `${token} is what the server rejects, why?`,
      new Headers({ authorization: `Bearer ${token}` }),
    );
    expect(title).not.toContain(token.slice(0, 20));
    expect(title).toBe("[redacted] is what the server rejects, why?");
  });

  it("leaves out a word the source's limit cuts in two (it may be a key)", () => {
    // White space collapses in a title, so the word at the limit would show.
    const title = titleFor(`ab${" ".repeat(4000)}${"k".repeat(200)}`, new Headers());
    expect(title).toBe("ab");
  });
});
