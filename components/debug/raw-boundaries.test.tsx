// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { RawView } from "./raw-view";

afterEach(cleanup);

const user = (id: string, content: string): ProtocolEvent => ({
  type: "user",
  id,
  timestamp: 0,
  content,
});
const respond = (id: string, turn: number, content: string): ProtocolEvent => ({
  type: "respond",
  id,
  timestamp: 0,
  turn,
  span: { start: 0, end: content.length },
  content,
});

describe("Raw view turn boundaries", () => {
  it("marks where the turns of another user message begin, outside the raw text", () => {
    const log = new RunLog();
    log.apply({ kind: "event", event: user("u1", "list the files\nplease") });
    for (const turn of [0, 1]) {
      log.apply({ kind: "chunk", turn, t: 0, text: `turn ${turn}` });
      log.apply({ kind: "event", event: respond(`r${turn}`, turn, `turn ${turn}`) });
    }
    log.apply({ kind: "event", event: user("u2", "and read one") });
    log.apply({ kind: "chunk", turn: 2, t: 0, text: "turn 2" });
    log.apply({ kind: "event", event: respond("r2", 2, "turn 2") });
    usePlayground.setState({ log, version: log.version, hoveredId: null, selectedId: null });

    const { container } = render(<RawView />);
    const order = [...container.querySelectorAll("[data-raw-user-boundary], [data-raw-turn]")].map(
      (element) =>
        element.hasAttribute("data-raw-turn")
          ? `turn ${element.getAttribute("data-raw-turn")}`
          : element.textContent,
    );
    expect(order).toEqual([
      "user message 1 list the files",
      "turn 0",
      "turn 1",
      "user message 2 and read one",
      "turn 2",
    ]);
    expect(container.querySelector('[data-raw-turn="2"] [data-raw-text]')?.textContent).toBe(
      "turn 2",
    );
  });

  it("draws a user message in the order it was written: its bidi controls are isolated", () => {
    const log = new RunLog();
    log.apply({ kind: "event", event: user("u1", "send file \u202Egnp.exe\u202C now") });
    log.apply({ kind: "chunk", turn: 0, t: 0, text: "ok" });
    log.apply({ kind: "event", event: respond("r0", 0, "ok") });
    usePlayground.setState({ log, version: log.version, hoveredId: null, selectedId: null });
    const { container } = render(<RawView />);
    const boundary = container.querySelector("[data-raw-user-boundary]");
    // The text is kept whole (copy gives what was sent); the override ends at its own isolate.
    expect(boundary?.textContent).toContain("send file \u202Egnp.exe\u202C now");
    const isolates = [...(boundary?.querySelectorAll<HTMLElement>("[data-bidi]") ?? [])];
    expect(isolates.map((element) => element.dataset.bidi)).toEqual(["RLO", "PDF"]);
    expect(isolates[0]?.style.unicodeBidi).toBe("isolate");
  });
});
