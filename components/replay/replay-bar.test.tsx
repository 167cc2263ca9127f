// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mergePieces } from "@/lib/protocol";
import { runSpanOf } from "@/lib/replay/run-spans";
import { recordRun } from "@/lib/replay/testing";
import type { StoredRecord } from "@/lib/store/store";
import { transcriptRunsOf } from "@/lib/store/transcript-runs";
import { type OpenTranscript, usePlayground } from "@/state/playground-store";
import { ReplayBar } from "./replay-bar";
import { planReplay } from "./replay-plan";
import { formatReplayTime } from "./speeds";
import { RESTING_RUNS_QUIET_MS } from "./use-resting-runs";

let recorded: OpenTranscript;

beforeAll(async () => {
  const { transcript } = await recordRun({ message: "list the files", dialect: "xml" });
  recorded = transcript;
});

afterEach(cleanup);

const eventsShown = () =>
  usePlayground
    .getState()
    .log.events.map((event) => `${event.type}:${event.id}`)
    .join(" ");

/**
 * Stands in for the server's pages of the recorded transcript (`?after=&limit=`), telling its
 * runs when asked (`runs=1`); the URLs asked go to `asked`.
 */
function serveRecorded(asked: string[] = []) {
  const all = recorded.records;
  const runs = transcriptRunsOf(all).map(runSpanOf);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      asked.push(url);
      const query = new URL(url, "http://localhost").searchParams;
      const after = Number(query.get("after") ?? 0);
      const limit = Number(query.get("limit"));
      const records = all.filter((record) => record.seq > after).slice(0, limit);
      const told = query.get("runs") === "1" ? { runs } : {};
      return new Response(
        JSON.stringify({ meta: recorded.meta, records, recordCount: all.length, ...told }),
      );
    }),
  );
  return { ...recorded, records: all.slice(-3), recordCount: all.length };
}

function open(transcript: OpenTranscript) {
  usePlayground.getState().openTranscript(transcript);
  render(<ReplayBar transcript={transcript} busy={false} />);
}

describe("ReplayBar", () => {
  it("replays into the store's log: the same events, rebuilt from nothing", () => {
    open(recorded);
    const live = eventsShown();
    fireEvent.change(screen.getByLabelText("Replay speed"), { target: { value: "instant" } });
    act(() => screen.getByRole("button", { name: "Play" }).click());
    expect(eventsShown()).toBe(live);
    expect(usePlayground.getState().replaying).toBe(true);
    expect(screen.queryByTestId("replay-diffs")).toBeNull();
    expect(screen.getAllByText("Exit replay")).toHaveLength(1);
  });

  it("steps back by event from the whole transcript, and forward again", () => {
    open(recorded);
    const count = usePlayground.getState().log.events.length;
    act(() => screen.getByRole("button", { name: "Step back" }).click());
    expect(usePlayground.getState().log.events).toHaveLength(count - 1);
    act(() => screen.getByRole("button", { name: "Step back" }).click());
    expect(usePlayground.getState().log.events).toHaveLength(count - 2);
    act(() => screen.getByRole("button", { name: "Step forward" }).click());
    expect(usePlayground.getState().log.events).toHaveLength(count - 1);
    act(() => screen.getByRole("button", { name: "Exit replay" }).click());
    expect(usePlayground.getState().log.events).toHaveLength(count);
    expect(usePlayground.getState().replaying).toBe(false);
  });

  it("steps by whole event by default, by one streamed piece with Shift", () => {
    open(recorded);
    const whole = usePlayground.getState().log.events.map((event) => event.type);
    const fullThink = usePlayground.getState().log.events.find((event) => event.type === "think");
    const scrubber = screen.getByTestId("replay-scrubber");
    act(() => fireEvent.keyDown(scrubber, { key: "Home" }));
    const forward = screen.getByRole("button", { name: "Step forward" });
    const shown = () => usePlayground.getState().log.events;
    // Each plain step adds exactly one (merged) event, however many pieces it streamed in.
    for (let count = 2; count <= whole.length; count++) {
      act(() => forward.click());
      expect(shown().map((event) => event.type)).toEqual(whole.slice(0, count));
    }
    act(() => fireEvent.keyDown(scrubber, { key: "Home" }));
    act(() => fireEvent.click(forward, { shiftKey: true }));
    const firstPiece = shown().at(-1);
    expect(firstPiece?.type).toBe("think");
    expect(fullThink?.type === "think" && firstPiece?.type === "think").toBe(true);
    if (fullThink?.type !== "think" || firstPiece?.type !== "think") return;
    expect(firstPiece.content.length).toBeLessThan(fullThink.content.length);
    act(() => fireEvent.click(forward, { shiftKey: true }));
    expect(shown()).toHaveLength(2);
    const secondPiece = shown().at(-1);
    expect(secondPiece?.type === "think" && secondPiece.content.length).toBeGreaterThan(
      firstPiece.content.length,
    );
  });

  it("says how the re-parse differs from a recording, and shows each difference", () => {
    const records = recorded.records.map((record): StoredRecord => {
      if (record.kind !== "event" || record.event.type !== "respond" || record.event.content === "")
        return record;
      return { ...record, event: { ...record.event, content: `${record.event.content}!` } };
    });
    const changed = mergePieces(
      records.flatMap((record) => (record.kind === "event" ? [record.event] : [])),
    ).filter((event) => event.type === "respond").length;
    open({ ...recorded, records });
    const notice = screen.getByTestId("replay-diffs");
    expect(notice.textContent).toContain(
      `${changed} ${changed === 1 ? "difference" : "differences"} from the recorded run`,
    );
    act(() => screen.getByRole("button", { expanded: false }).click());
    expect(screen.getAllByTestId("replay-diff")[0]?.textContent).toContain("changed: content");
  });

  it("draws a mark for the call and for the user message", () => {
    open(recorded);
    const scrubber = screen.getByTestId("replay-scrubber");
    expect(scrubber.querySelectorAll("[data-tone=call]")).toHaveLength(1);
    expect(scrubber.querySelectorAll("[data-tone=user]")).toHaveLength(1);
    act(() => fireEvent.keyDown(scrubber, { key: "Home" }));
    expect(usePlayground.getState().log.events.map((event) => event.type)).toEqual(["user"]);
  });

  it("a transcript opened from its tail replays from its first record, read from the server", async () => {
    const all = recorded.records;
    const asked: string[] = [];
    const tail = serveRecorded(asked);
    try {
      open(tail);
      expect(screen.getByTestId("replay-duration").textContent).toMatch(/^~/);
      fireEvent.change(screen.getByLabelText("Replay speed"), { target: { value: "instant" } });
      await act(async () => screen.getByRole("button", { name: "Play" }).click());
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      const replayed = usePlayground.getState().log.events;
      expect(replayed[0]?.type).toBe("user");
      expect(replayed.map((event) => event.id)).toEqual(
        mergePieces(all.flatMap((record) => (record.kind === "event" ? [record.event] : []))).map(
          (event) => event.id,
        ),
      );
      // Read from the first record up to the loaded tail, which was not read again.
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("after=0");
      // With the transcript's runs, for the replay's whole length from this first page.
      expect(asked[0]).toContain("runs=1");
      expect(screen.getByTestId("replay-duration").textContent).not.toMatch(/^~/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a transcript opened from its tail shows its whole length before Play, once it is told its runs", async () => {
    const all = recorded.records;
    const asked: string[] = [];
    const tail = serveRecorded(asked);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      open(tail);
      const duration = () => screen.getByTestId("replay-duration").textContent ?? "";
      expect(duration()).toMatch(/^~/);
      await act(async () => vi.advanceTimersByTime(RESTING_RUNS_QUIET_MS));
      expect(asked).toEqual([expect.stringContaining("from=end")]);
      expect(asked[0]).toContain("runs=1");
      expect(duration()).toBe(formatReplayTime(planReplay("xml", all).duration));
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it("asks for no runs while a run of the page streams, only once it has ended", async () => {
    const asked: string[] = [];
    const tail = serveRecorded(asked);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      open(tail);
      act(() => usePlayground.setState({ status: "running" }));
      await act(async () => vi.advanceTimersByTime(5 * RESTING_RUNS_QUIET_MS));
      expect(asked).toEqual([]);
      act(() => usePlayground.setState({ status: "done" }));
      await act(async () => vi.advanceTimersByTime(RESTING_RUNS_QUIET_MS));
      expect(asked).toEqual([expect.stringContaining("runs=1")]);
    } finally {
      act(() => usePlayground.setState({ status: "idle" }));
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it("runs told after Play leave the replay under way as it is", async () => {
    const tail = serveRecorded();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      open(tail);
      await act(async () => screen.getByRole("button", { name: "Step forward" }).click());
      await act(async () => vi.advanceTimersByTime(RESTING_RUNS_QUIET_MS));
      expect(usePlayground.getState().replaying).toBe(true);
      expect(usePlayground.getState().log.events.map((event) => event.type)).toEqual(["user"]);
      expect(screen.getAllByText("Exit replay")).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it("a replay under way stops at once when another transcript opens: none of it lands there", () => {
    // The replay clock reads performance.now() and waits on setTimeout.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      // Recorded at pace 0: spread over seconds, so the replay is still going at the switch.
      const start =
        recorded.records.find((record) => record.kind === "event")?.event.timestamp ?? 0;
      const slow: OpenTranscript = {
        ...recorded,
        records: recorded.records.map((record, index) =>
          record.kind === "event"
            ? { ...record, event: { ...record.event, timestamp: start + index * 200 } }
            : { ...record, t: index * 200 },
        ),
      };
      open(slow);
      act(() => screen.getByRole("button", { name: "Play" }).click());
      act(() => vi.advanceTimersByTime(500));
      const other: OpenTranscript = {
        ...recorded,
        meta: { ...recorded.meta, id: "another" },
        records: recorded.records.slice(0, 1),
      };
      // Opened elsewhere (the sidebar): this bar has not rendered since.
      act(() => usePlayground.getState().openTranscript(other));
      const shown = eventsShown();
      act(() => vi.advanceTimersByTime(60_000));
      expect(eventsShown()).toBe(shown);
      expect(usePlayground.getState()).toMatchObject({ transcriptId: "another", replaying: false });
    } finally {
      vi.useRealTimers();
    }
  });
});
