// @vitest-environment jsdom
import { act, fireEvent } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { loadMarkdownRenderer } from "./markdown";
import { cleanup, loadLog, make, renderCard } from "./testing";

// The markdown renderer is its own chunk: loaded first, cards render their markdown at once.
beforeAll(() => loadMarkdownRenderer());
afterEach(cleanup);

const SPAN = { start: 0, end: 4 };
const ONE_OF_EACH: ProtocolEvent[] = [
  make.user("list the files"),
  make.think("I'll use `list`."),
  make.call("c1", "list", { path: "." }),
  { type: "execute", id: "x1", timestamp: 0, turn: 0, span: { start: 0, end: 10 } },
  make.respond("Found **4** entries."),
  { type: "end", id: "end1", timestamp: 0 },
  {
    type: "metric",
    id: "m1",
    timestamp: 0,
    step: { input: 1280, output: 166, durationMs: 1009, ttftMs: 9 },
    total: { input: 1280, output: 166, durationMs: 1009 },
  },
  {
    type: "error",
    id: "err1",
    timestamp: 0,
    turn: 0,
    span: SPAN,
    code: "invalid_json",
    message: "Unquoted key at 12.",
  },
  { type: "interrupt", id: "i1", timestamp: 0, reason: "user" },
  make.result("ghost", "failure", "Expected a JSON array.", "Malformed execute block", "protocol"),
];

describe("timeline cards", () => {
  it.each(ONE_OF_EACH.map((event) => [event.type, event] as const))(
    "%s renders its event with data-event-type and data-event-id",
    (type, event) => {
      loadLog(ONE_OF_EACH);
      const { container } = renderCard(event);
      const root = container.firstElementChild;
      expect(root?.getAttribute("data-event-type")).toBe(type);
      expect(root?.getAttribute("data-event-id")).toBe(event.id);
    },
  );

  it("shows each card's content", () => {
    loadLog(ONE_OF_EACH);
    const text = (event: ProtocolEvent) => {
      const { container, unmount } = renderCard(event);
      const content = container.textContent ?? "";
      unmount();
      return content;
    };
    const [user, , , execute, respond, end, metric, error, interrupt, orphan] = ONE_OF_EACH;
    expect(text(user as ProtocolEvent)).toBe("list the files");
    expect(text(execute as ProtocolEvent)).toContain("execute · 1 call");
    expect(text(respond as ProtocolEvent)).toBe("Found 4 entries.");
    expect(text(end as ProtocolEvent)).toContain("Run ended");
    // 166 tokens over 1000 ms of generation (1009 − 9 ms to the first token).
    expect(text(metric as ProtocolEvent)).toMatch(/ttft 9 ms.*1,280 → 166.*tok\/s 166.*1\.01 s/);
    expect(text(error as ProtocolEvent)).toContain("invalid_json");
    expect(text(error as ProtocolEvent)).toContain("Unquoted key at 12.");
    expect(text(interrupt as ProtocolEvent)).toBe("Interrupted by you");
    expect(text(orphan as ProtocolEvent)).toContain("Malformed execute block");
  });

  it("a metric of a turn that got no token shows no ttft, not 0 ms", () => {
    const untimed: ProtocolEvent = {
      type: "metric",
      id: "m2",
      timestamp: 0,
      step: { input: 40, output: 0, durationMs: 120 },
      total: { input: 40, output: 0, durationMs: 120 },
    };
    loadLog([untimed]);
    const { container } = renderCard(untimed);
    expect(container.textContent).toMatch(/ttft –/);
    expect(container.textContent).not.toMatch(/ttft 0/);
  });

  it("a result whose call is in the log renders nothing by itself", () => {
    const result = make.result("c1", "success", "ok", "Listed 4 entries");
    loadLog([make.call("c1", "list", {}), result]);
    const { container } = renderCard(result);
    expect(container.innerHTML).toBe("");
  });

  it("hovering and clicking a card link it (hover, select with its turn)", () => {
    const think = make.think("hmm");
    loadLog([think, make.respond("done")]);
    const { container } = renderCard(think);
    const root = container.firstElementChild as HTMLElement;
    fireEvent.pointerOver(root);
    expect(usePlayground.getState().hoveredId).toBe(think.id);
    fireEvent.pointerLeave(root);
    expect(usePlayground.getState().hoveredId).toBeNull();
    fireEvent.click(root);
    expect(usePlayground.getState()).toMatchObject({ selectedId: think.id, selectedTurn: 0 });
  });

  it("an error's Show in raw selects it and opens the raw tab", () => {
    const error = ONE_OF_EACH[7] as ProtocolEvent;
    loadLog(ONE_OF_EACH, { debugOpen: false, debugTab: "events" });
    const { getByRole } = renderCard(error);
    act(() => getByRole("button", { name: "Show in raw" }).click());
    expect(usePlayground.getState()).toMatchObject({
      selectedId: "err1",
      selectedTurn: 0,
      debugTab: "raw",
      debugOpen: true,
    });
  });

  describe("a malformed call", () => {
    const error: ProtocolEvent = {
      type: "error",
      id: "err9",
      timestamp: 0,
      turn: 2,
      span: { start: 5, end: 30 },
      code: "invalid_call",
      message: 'The call has no "name".',
    };
    const failure = make.result(
      "err9",
      "failure",
      error.message,
      "Malformed call, not run",
      "protocol",
    );

    it("says it once: the failure folds into the error card, which has no card of its own", () => {
      loadLog([error, failure]);
      const card = renderCard(error);
      const folded = card.getByTestId("folded-failure");
      expect(folded.textContent).toContain("Malformed call, not run");
      expect(folded.textContent).not.toContain(error.message);
      expect(card.container.textContent?.split(error.message)).toHaveLength(2);
      card.unmount();
      expect(renderCard(failure).container.innerHTML).toBe("");
    });

    it("hovering the folded failure hovers the error, whose span the raw view shows", () => {
      loadLog([error, failure]);
      const card = renderCard(error);
      fireEvent.pointerOver(card.getByTestId("folded-failure"));
      expect(usePlayground.getState().hoveredId).toBe("err9");
    });

    it("a failure whose error is not in the log still links to it on hover and click", () => {
      loadLog([failure]);
      const { container } = renderCard(failure);
      const root = container.firstElementChild as HTMLElement;
      expect(root.dataset.eventId).toBe(failure.id);
      fireEvent.pointerOver(root);
      expect(usePlayground.getState().hoveredId).toBe("err9");
      fireEvent.click(root);
      expect(usePlayground.getState().selectedId).toBe("err9");
    });
  });

  it("internal ids show only with show ids; ids the model wrote always show", () => {
    const generated = make.call("e-g1", "list", {}, { id: "e-g1" });
    const named = make.call("files", "list", {}, { action: { type: "tool", mode: "async" } });
    const generatedAction = make.call(
      "e-a1",
      "read",
      {},
      {
        id: "e-a1",
        action: { type: "tool", mode: "sync" },
      },
    );
    loadLog([generated, named, generatedAction], { showIds: false });
    const text = (event: ProtocolEvent) => {
      const { container, unmount } = renderCard(event);
      const content = container.textContent ?? "";
      unmount();
      return content;
    };
    expect(text(generated)).not.toContain("e-g1");
    expect(text(generatedAction)).not.toContain("e-a1");
    expect(text(named)).toContain("id files");
    act(() => usePlayground.setState({ showIds: true }));
    expect(text(generated)).toContain("e-g1");
    expect(text(generatedAction)).toContain("id e-a1");
  });
});
