import { describe, expect, it } from "vitest";
import { conversation } from "./testing";
import { exchangesOf } from "./turns";

describe("exchangesOf", () => {
  it("joins a turn's chunks and respond pieces, puts results in their call's turn, drops metrics", () => {
    const exchanges = exchangesOf(
      conversation([
        {
          user: "q",
          turns: [
            {
              raw: "<execute>read</execute>",
              calls: [{ id: "c1", name: "read", args: {}, result: "text" }],
            },
            { raw: "<respond>done</respond>", respond: "done here" },
          ],
        },
      ]),
    );
    expect(exchanges).toHaveLength(1);
    const [first, second] = exchanges[0]?.turns ?? [];
    expect(first?.raw).toBe("<execute>read</execute>");
    expect(first?.events.map((event) => event.type)).toEqual(["call", "result"]);
    expect(
      second?.events.map((event) => (event.type === "respond" ? event.content : event.type)),
    ).toEqual(["done here"]);
  });

  it("keeps records before any user message in an exchange without one", () => {
    const exchanges = exchangesOf([{ kind: "chunk", turn: 0, t: 0, text: "raw" }]);
    expect(exchanges).toEqual([{ turns: [{ turn: 0, raw: "raw", events: [] }] }]);
  });

  it("puts an error without a turn in the exchange's last turn, or a turn of its own", () => {
    const error = {
      type: "error",
      id: "e",
      timestamp: 0,
      code: "provider",
      message: "down",
    } as const;
    const exchanges = exchangesOf([
      { kind: "event", event: { type: "user", id: "u", timestamp: 0, content: "q" } },
      { kind: "event", event: error },
    ]);
    expect(exchanges[0]?.turns).toEqual([{ turn: null, raw: "", events: [error] }]);
  });

  it("leaves out a sub-agent's events", () => {
    const exchanges = exchangesOf([
      { kind: "event", event: { type: "user", id: "u", timestamp: 0, content: "q" } },
      {
        kind: "event",
        event: {
          type: "respond",
          id: "s",
          timestamp: 0,
          turn: 0,
          span: { start: 0, end: 1 },
          content: "sub",
          parent: "c1",
        },
      },
    ]);
    expect(exchanges[0]?.turns).toEqual([]);
  });
});
