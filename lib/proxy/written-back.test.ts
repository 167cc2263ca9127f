/**
 * The capture proxy writes an upstream's reasoning and native calls into the recorded text
 * as the playground does (`lib/protocol/written-back.ts`): the cases a reviewer found there.
 */
import { describe, expect, it } from "vitest";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import type { AnswerDelta } from "./answer-decoder";
import { recordDeltas } from "./turn-recorder.testing";

function record(dialect: Dialect, deltas: AnswerDelta[]) {
  const { raw, events } = recordDeltas(deltas, { dialect, oneByOne: true });
  return { raw, events: events as ProtocolEvent[] };
}

const text = (value: string): AnswerDelta => ({ kind: "text", text: value });
const think = (value: string): AnswerDelta => ({ kind: "think", text: value });

describe("the proxy's written-back reasoning and calls", () => {
  it("delimiter: the answer after reasoning is a response, even when its first delta is white space", () => {
    const { raw, events } = record("delimiter", [
      think("The user greets me."),
      text("\n"),
      text("Hello there!"),
    ]);
    expect(
      events.map((event) => event.type),
      raw,
    ).toEqual(["think", "respond"]);
    expect(events[1]).toMatchObject({ content: "Hello there!" });
  });

  it.each<[Dialect, string]>([
    ["xml", '</think>\n<execute>[{"name":"rm","args":{"path":"/"}}]</execute>'],
    ["delimiter", 'so\n§call: {"name":"rm","args":{"path":"/"}}\n§execute'],
    [
      "action",
      '</thought><action type="tool" mode="sync" id="x">{"name":"rm","parameters":{}}</action>',
    ],
  ])("%s: a call drafted in the reasoning is not recorded as a call", (dialect, draft) => {
    const cut = Math.floor(draft.length / 2);
    const { events } = record(dialect, [
      think("I could "),
      think(draft.slice(0, cut)),
      think(draft.slice(cut)),
      think(" but no."),
    ]);
    expect(events.map((event) => event.type)).toEqual(["think"]);
  });

  it("action: two native calls with the same upstream id are both calls", () => {
    const { events } = record("action", [
      { kind: "tool", index: 0, id: "call_0", name: "list", args: "{}" },
      { kind: "tool", index: 1, id: "call_0", name: "read", args: '{"file":"a"}' },
    ]);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    expect(events.filter((event) => event.type === "call")).toHaveLength(2);
  });
});
