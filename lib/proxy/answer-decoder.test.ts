import { describe, expect, it } from "vitest";
import { type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { recordDeltas } from "./turn-recorder.testing";

const MAX = 1 << 20;

function sse(frames: unknown[]): Uint8Array {
  const text = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("");
  return new TextEncoder().encode(`${text}data: [DONE]\n\n`);
}

function decodeAll(format: "openai" | "anthropic", streaming: boolean, bytes: Uint8Array) {
  const decoder = createAnswerDecoder(format, streaming, MAX);
  return [...decoder.push(bytes), ...decoder.end()];
}

const textOf = (deltas: AnswerDelta[]) =>
  deltas.flatMap((delta) => (delta.kind === "text" ? [delta.text] : [])).join("");
const toolsOf = (deltas: AnswerDelta[]) => deltas.filter((delta) => delta.kind === "tool");

describe("an OpenAI answer with several choices (n > 1)", () => {
  it("records choice 0 of a stream whose frames interleave the choices", () => {
    const bytes = sse([
      { choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
      { choices: [{ index: 1, delta: { role: "assistant", content: "" } }] },
      { choices: [{ index: 1, delta: { content: "Second " } }] },
      { choices: [{ index: 0, delta: { content: "First " } }] },
      // Some servers put several choices in one frame, not always in index order.
      {
        choices: [
          { index: 1, delta: { content: "answer." } },
          { index: 0, delta: { content: "answer." } },
        ],
      },
      {
        choices: [
          {
            index: 1,
            delta: {
              tool_calls: [{ index: 0, id: "call_b", function: { name: "list", arguments: "{}" } }],
            },
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 0, id: "call_a", function: { name: "read", arguments: "{}" } }],
            },
          },
        ],
      },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 8 } },
    ]);
    const deltas = decodeAll("openai", true, bytes);
    expect(textOf(deltas)).toBe("First answer.");
    expect(toolsOf(deltas)).toEqual([
      { kind: "tool", index: 0, id: "call_a", name: "read", args: "{}" },
    ]);
    expect(deltas).toContainEqual({ kind: "usage", input: 3, output: 8 });
  });

  it("records choice 0 of a whole answer, wherever it is in the list", () => {
    const body = {
      choices: [
        { index: 1, message: { role: "assistant", content: "Second." } },
        { index: 0, message: { role: "assistant", content: "First." } },
      ],
    };
    const deltas = decodeAll("openai", false, new TextEncoder().encode(JSON.stringify(body)));
    expect(textOf(deltas)).toBe("First.");
  });

  it("still reads a choice that names no index (one choice, as some servers send it)", () => {
    const bytes = sse([{ choices: [{ delta: { content: "Hi" } }] }]);
    expect(textOf(decodeAll("openai", true, bytes))).toBe("Hi");
  });
});

describe("a whole answer over the recording cap", () => {
  it("is this recorder's limit, not the provider's error: an internal error, not provider", () => {
    const body = JSON.stringify({
      choices: [{ index: 0, message: { role: "assistant", content: "x".repeat(2000) } }],
    });
    const decoder = createAnswerDecoder("openai", false, 1000);
    const deltas = [...decoder.push(new TextEncoder().encode(body)), ...decoder.end()];
    const { records } = recordDeltas(deltas, { maxChars: 500 });
    const errors = records.flatMap((record) =>
      record.kind === "event" && record.event.type === "error" ? [record.event] : [],
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "internal" });
    expect(errors[0]?.message).toMatch(/over the recording cap .* reached the client/);
  });
});
