import { describe, expect, it } from "vitest";
import { alignTranscripts } from "./align";
import { conversation } from "./testing";
import { exchangesOf } from "./turns";

const align = (a: Parameters<typeof conversation>[0], b: Parameters<typeof conversation>[0]) =>
  alignTranscripts(exchangesOf(conversation(a)), exchangesOf(conversation(b)));

const turn = (raw: string) => ({ raw, respond: raw });

describe("alignTranscripts", () => {
  it("lines up identical transcripts row by row, all the same", () => {
    const spec = [
      { user: "one", turns: [turn("a"), turn("b")] },
      { user: "two", turns: [turn("c")] },
    ];
    const rows = align(spec, spec);
    expect(rows.map((row) => [row.a?.raw, row.b?.raw, row.status])).toEqual([
      ["a", "a", "same"],
      ["b", "b", "same"],
      ["c", "c", "same"],
    ]);
    expect(rows.map((row) => row.user)).toEqual([
      { a: "one", b: "one" },
      undefined,
      { a: "two", b: "two" },
    ]);
  });

  it("leaves gaps when one side has more turns in an exchange", () => {
    const rows = align(
      [{ user: "q", turns: [turn("a"), turn("b"), turn("c")] }],
      [{ user: "q", turns: [turn("a")] }],
    );
    expect(rows.map((row) => [row.a?.raw, row.b?.raw, row.status])).toEqual([
      ["a", "a", "same"],
      ["b", undefined, "only-a"],
      ["c", undefined, "only-a"],
    ]);
  });

  it("does not shift the rest when one side has an extra exchange", () => {
    const rows = align(
      [
        { user: "one", turns: [turn("a")] },
        { user: "two", turns: [turn("b")] },
        { user: "three", turns: [turn("c")] },
      ],
      [
        { user: "one", turns: [turn("a")] },
        { user: "three", turns: [turn("c")] },
      ],
    );
    expect(rows.map((row) => [row.user, row.a?.raw, row.b?.raw, row.status])).toEqual([
      [{ a: "one", b: "one" }, "a", "a", "same"],
      [{ a: "two" }, "b", undefined, "only-a"],
      [{ a: "three", b: "three" }, "c", "c", "same"],
    ]);
  });

  it("aligns a fork's shared prefix exactly and pairs what follows it", () => {
    const shared = [
      {
        user: "list",
        turns: [
          {
            raw: "<execute>list</execute>",
            calls: [{ id: "c1", name: "list", args: {}, result: "a.md" }],
          },
        ],
      },
    ];
    const parent = [...shared, { user: "read it", turns: [turn("reading"), turn("done: hello")] }];
    const fork = [
      ...shared,
      { user: "read it", turns: [turn("reading"), turn("done: bye"), turn("more")] },
    ];
    const rows = align(parent, fork);
    expect(rows.map((row) => [row.a?.turn, row.b?.turn, row.status])).toEqual(
      [
        [0, 0, "same"],
        [1, 1, "same"],
        [2, 2, "changed"],
        [null, 3, "only-b"],
      ].map(([a, b, status]) => [a ?? undefined, b, status]),
    );
  });

  it("pairs an edited user message with the one it replaced", () => {
    const rows = align(
      [
        { user: "one", turns: [turn("a")] },
        { user: "two", turns: [turn("b")] },
      ],
      [
        { user: "one", turns: [turn("a")] },
        { user: "TWO", turns: [turn("b")] },
      ],
    );
    expect(rows.map((row) => [row.user, row.status])).toEqual([
      [{ a: "one", b: "one" }, "same"],
      [{ a: "two", b: "TWO" }, "changed"],
    ]);
  });

  it("marks a row changed when only a result differs", () => {
    const call = (result: string) => ({
      raw: "x",
      calls: [{ id: "c1", name: "read", args: { path: "a" }, result }],
    });
    const rows = align(
      [{ user: "q", turns: [call("old")] }],
      [{ user: "q", turns: [call("new")] }],
    );
    expect(rows[0]?.status).toBe("changed");
    expect(rows[0]?.events.find((pair) => pair.a?.type === "result")?.fields).toEqual(["content"]);
  });

  it("gives one row to a transcript with no turns at all", () => {
    const rows = align([{ user: "q", turns: [] }], []);
    expect(rows).toEqual([{ exchange: 0, user: { a: "q" }, status: "only-a", events: [] }]);
  });
});
