import { describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { copyTexts } from "./copy-texts";

const span = { start: 0, end: 1 };

describe("copyTexts", () => {
  it("offers a call's arguments and, once it has one, its result", () => {
    const log = new RunLog();
    const call: ProtocolEvent = {
      type: "call",
      id: "c1",
      timestamp: 1,
      turn: 0,
      span,
      call: { id: "k1", name: "read", args: { path: "a.txt" } },
    };
    log.apply({ kind: "event", event: call });
    expect(copyTexts(call, log).map((copy) => copy.label)).toEqual([
      "Copy arguments",
      "Copy event JSON",
    ]);
    log.apply({
      kind: "event",
      event: {
        type: "result",
        id: "r1",
        timestamp: 2,
        callId: "k1",
        payload: {
          tool: "read",
          status: "success",
          content: "hello",
          outcome: "ok",
          durationMs: 3,
        },
      },
    });
    const texts = copyTexts(call, log);
    expect(texts.map((copy) => [copy.label, copy.text()])).toEqual([
      ["Copy arguments", '{\n  "path": "a.txt"\n}'],
      ["Copy result", "hello"],
      ["Copy event JSON", JSON.stringify(call, null, 2)],
    ]);
  });

  it("copies an answer as its text, read when clicked", () => {
    const answer = {
      type: "respond",
      id: "a",
      timestamp: 1,
      turn: 0,
      span,
      content: "Hi",
    } as const;
    const [first] = copyTexts(answer, new RunLog());
    expect(first?.label).toBe("Copy answer");
    expect(first?.text()).toBe("Hi");
  });

  it("offers only the JSON for events with nothing else to copy", () => {
    const end: ProtocolEvent = { type: "end", id: "e", timestamp: 1 };
    expect(copyTexts(end, new RunLog()).map((copy) => copy.label)).toEqual(["Copy event JSON"]);
  });
});
