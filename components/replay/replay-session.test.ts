import { describe, expect, it } from "vitest";
import type { ForwardReader } from "@/lib/client/record-pages";
import { mergePieces, type ProtocolEvent, type TranscriptRecord } from "@/lib/protocol";
import { parallelCalls, streamedTurn } from "@/lib/replay/fixtures.testing";
import { type RunSpan, runSpanOf } from "@/lib/replay/run-spans";
import { fakeTimerHost } from "@/lib/replay/timer-host.testing";
import type { StoredRecord } from "@/lib/store";
import { transcriptRunsOf } from "@/lib/store/transcript-runs";
import { planReplay, ReplayPlanner } from "./replay-plan";
import { ReplaySession } from "./replay-session";

const TURN_TEXT = '<think>Look first.</think>\n<execute>[{"name": "list", "args": {}}]</execute>\n';

/**
 * `runs` runs of one turn each (a user message, then the turn streamed in 8-char chunks, then
 * its metric and the run's end, as the agent loop writes it).
 */
function conversation(runs: number): StoredRecord[] {
  const out: (TranscriptRecord & { runId: string })[] = [];
  for (let run = 0; run < runs; run++) {
    const runId = `r${run}`;
    const at = 1_700_000_000_000 + run * 60_000;
    out.push({
      kind: "event",
      runId,
      event: { type: "user", id: `u${run}`, timestamp: at, content: `${run}` },
    });
    out.push(
      ...streamedTurn({
        runId,
        turn: run,
        text: TURN_TEXT,
        size: 8,
        t: 0,
        epoch: at,
        metricAt: at + TURN_TEXT.length,
        durationMs: TURN_TEXT.length,
      }),
    );
    // Its call reached no execute that ran (no results): the loop ends the run after the metric.
    out.push({
      kind: "event",
      runId,
      event: { type: "end", id: `t${run}-end`, timestamp: at + TURN_TEXT.length, turn: run },
    });
  }
  return out.map((record, index) => ({ ...record, seq: index + 1 }));
}

/** `record` of a turn `by` later (its events' too). */
function shiftTurn<R extends TranscriptRecord>(record: R, by: number): R {
  if (record.kind !== "event") return { ...record, turn: record.turn + by };
  const { event } = record;
  return "turn" in event && event.turn !== undefined
    ? { ...record, event: { ...event, turn: event.turn + by } }
    : record;
}

/**
 * Pages of `size` records, each answered when the test says (`answer`), or at once (`auto`);
 * `runs`: the transcript's runs, with the first page (as the server gives them).
 */
function pagedReader(all: StoredRecord[], size: number, runs?: RunSpan[]) {
  let after = 0;
  const waiting: (() => void)[] = [];
  let auto = false;
  let asked = 0;
  let failing = false;
  const reader: ForwardReader = {
    next() {
      asked++;
      if (failing) {
        failing = false;
        return new Promise((resolve) => {
          const answer = () => resolve({ ok: false, error: "offline" });
          if (auto) answer();
          else waiting.push(answer);
        });
      }
      const records = all.filter((record) => record.seq > after).slice(0, size);
      after = records.at(-1)?.seq ?? after;
      const first = records[0]?.seq === 1 && runs !== undefined ? { runs } : {};
      const value = { records, recordCount: all.length, done: after >= all.length, ...first };
      return new Promise((resolve) => {
        const answer = () => resolve({ ok: true, value });
        if (auto) answer();
        else waiting.push(answer);
      });
    },
  };
  return {
    reader,
    asked: () => asked,
    /** Answers the reads asked so far. */
    answer() {
      for (const answer of waiting.splice(0)) answer();
    },
    answerAll() {
      auto = true;
      this.answer();
    },
    /** The next read fails (the server gone, say). */
    failNext() {
      failing = true;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(runs: number, pageSize: number, readAhead = 30, withRuns = false) {
  const all = conversation(runs);
  const spans = withRuns ? transcriptRunsOf(all).map(runSpanOf) : undefined;
  const pages = pagedReader(all, pageSize, spans);
  const host = fakeTimerHost();
  let shown: ProtocolEvent[] = [];
  let begun = 0;
  const failures: string[] = [];
  const session = new ReplaySession({
    source: {
      kind: "paged",
      planner: new ReplayPlanner("xml"),
      reader: pages.reader,
      recordCount: all.length,
      // About what the loaded tail would say: ~590 ms a run (the turn, then the gap).
      duration: runs * 590,
    },
    speed: 1,
    host,
    readAhead,
    begin: () => {
      begun++;
    },
    show(frame) {
      const events = frame.records.flatMap((record) =>
        record.kind === "event" ? [record.event] : [],
      );
      shown = frame.reset ? events : [...shown, ...events];
    },
    changed: () => {},
    failed: (message) => {
      failures.push(message);
    },
  });
  const whole = mergePieces(
    planReplay("xml", all).entries.flatMap(({ record }) =>
      record.kind === "event" ? [record.event] : [],
    ),
  ).map((event) => event.id);
  return {
    all,
    pages,
    host,
    session,
    whole,
    begun: () => begun,
    failures,
    shownIds: () => mergePieces(shown).map((event) => event.id),
  };
}

describe("ReplaySession over a transcript read from its start", () => {
  it("plays once the first runs are planned, reading on only a little ahead", async () => {
    const { pages, host, session, shownIds, begun } = setup(40, 30);
    session.play();
    expect(session.view()).toMatchObject({ loading: true, complete: false });
    expect(begun()).toBe(0);
    pages.answer();
    await settle();
    expect(begun()).toBe(1);
    expect(shownIds()[0]).toBe("u0");
    expect(shownIds().includes("u1")).toBe(false);
    expect(session.view().playing).toBe(true);
    // Read ahead to 30 entries past the play head, then no further while it stands still.
    for (let round = 0; round < 5; round++) {
      pages.answer();
      await settle();
    }
    const asked = pages.asked();
    expect(asked).toBeLessThan(6);
    const ahead = session.entries.length - session.view().index;
    expect(ahead).toBeGreaterThanOrEqual(30);
    expect(ahead).toBeLessThan(30 + 60);
    // As it plays, it reads on.
    pages.answerAll();
    host.advance(5000);
    await settle();
    expect(pages.asked()).toBeGreaterThan(asked);
    expect(shownIds().length).toBeGreaterThan(3);
  });

  it("waits at the end of what was read, says it is loading, then plays on from there", async () => {
    // Read ahead only at the very end of what is planned.
    const { pages, host, session, shownIds, whole } = setup(6, 40, 1);
    session.play();
    pages.answer();
    await settle();
    host.advance(60_000);
    expect(session.view()).toMatchObject({ playing: true, loading: true, complete: false });
    const before = shownIds();
    expect(before.length).toBeGreaterThan(1);
    expect(before).toEqual(whole.slice(0, before.length));
    pages.answerAll();
    for (let round = 0; round < 20; round++) {
      await settle();
      host.advance(1000);
    }
    expect(shownIds()).toEqual(whole);
    expect(session.view()).toMatchObject({ playing: false, loading: false, complete: true });
  });

  it("knows the whole length from the first page when the server tells the runs", async () => {
    const { pages, session, all } = setup(40, 30, 30, true);
    const planned = planReplay("xml", all).duration;
    // Until a page is read: the length the loaded tail suggests, an estimate.
    expect(session.view()).toMatchObject({ duration: 40 * 590, exact: false });
    session.play();
    pages.answer();
    await settle();
    expect(session.view()).toMatchObject({ complete: false, exact: true, duration: planned });
    expect(session.view().loaded).toBeLessThan(planned);
    pages.answerAll();
    session.seek(planned);
    for (let round = 0; round < 40 && session.view().loading; round++) await settle();
    expect(session.view()).toMatchObject({ complete: true, exact: true, duration: planned });
  });

  it("knows the length of what follows calls made at the same time once they are planned", async () => {
    const calls = parallelCalls({
      epoch: 1_600_000_000_000,
      names: ["a", "b", "c"],
      content: "three at once",
      words: 20,
      word: (_name, index) => `w${index} `,
      tokens: { input: 1, output: 20 },
    });
    // Then runs one after another (their turns after the calls').
    const after = conversation(20).map((record) =>
      record.kind === "event" || record.kind === "request" || record.kind === "chunk"
        ? shiftTurn(record, 3)
        : record,
    );
    const all = [...calls, ...after].map((record, index) => ({ ...record, seq: index + 1 }));
    const runs = transcriptRunsOf(all).map(runSpanOf);
    const pages = pagedReader(all, 40, runs);
    const session = new ReplaySession({
      source: {
        kind: "paged",
        planner: new ReplayPlanner("xml"),
        reader: pages.reader,
        recordCount: all.length,
        duration: 1000,
      },
      speed: 1,
      readAhead: 1,
      begin: () => {},
      show: () => {},
      changed: () => {},
      failed: () => {},
    });
    const planned = planReplay("xml", all).duration;
    session.play();
    pages.answer();
    await settle();
    // The calls' overlap is placed by their records' times: an estimate until they are planned.
    expect(session.view()).toMatchObject({ exact: false, complete: false });
    for (let round = 0; round < 10 && !session.view().exact; round++) {
      session.seek(session.view().loaded + 1);
      pages.answer();
      await settle();
    }
    expect(session.view()).toMatchObject({ exact: true, complete: false, duration: planned });
  });

  it("estimates the length until the last page without the runs", async () => {
    const { pages, session, all } = setup(40, 30);
    session.play();
    pages.answer();
    await settle();
    expect(session.view()).toMatchObject({ complete: false, exact: false });
    expect(session.view().duration).not.toBe(planReplay("xml", all).duration);
  });

  it("a seek past what was read loads up to there first, then shows exactly what is due", async () => {
    const { pages, session, shownIds, whole } = setup(40, 30);
    session.play();
    pages.answer();
    await settle();
    session.pause();
    const { duration } = session.view();
    session.seek(duration);
    expect(session.view()).toMatchObject({ loading: true, position: duration, playing: false });
    pages.answerAll();
    for (let round = 0; round < 40 && session.view().loading; round++) await settle();
    expect(session.view()).toMatchObject({ loading: false, complete: true });
    expect(shownIds()).toEqual(whole);
  });

  it("a seek whose read fails gives up: the play head goes back to the clock's, and a later seek reads again", async () => {
    const { pages, session, failures, shownIds, whole } = setup(40, 30);
    session.play();
    pages.answer();
    await settle();
    session.pause();
    const before = session.view().position;
    const { duration } = session.view();
    pages.failNext();
    session.seek(duration);
    expect(session.view()).toMatchObject({ loading: true, position: duration });
    for (let round = 0; round < 20 && session.view().loading; round++) {
      pages.answer();
      await settle();
    }
    expect(failures).toEqual(["offline"]);
    expect(session.view()).toMatchObject({ loading: false, playing: false, position: before });
    // Not stuck on the failed seek: the next one reads on, to the end.
    const asked = pages.asked();
    session.seek(session.view().duration); // the end (the estimate may have moved)
    expect(pages.asked()).toBeGreaterThan(asked);
    pages.answerAll();
    for (let round = 0; round < 40 && session.view().loading; round++) await settle();
    expect(session.view()).toMatchObject({ loading: false, complete: true });
    expect(shownIds()).toEqual(whole);
  });

  it("a read ahead that fails pauses the replay instead of leaving it waiting", async () => {
    const { pages, session, host, failures } = setup(40, 30);
    session.play();
    pages.answer();
    await settle();
    pages.failNext();
    // Played to the end of what was read: it waits there, reading the next page, which fails.
    for (let round = 0; round < 40 && failures.length === 0; round++) {
      host.advance(1000);
      pages.answer();
      await settle();
    }
    expect(failures).toEqual(["offline"]);
    expect(session.view()).toMatchObject({ playing: false, loading: false });
  });

  it("a step back before anything played reads all of it, then takes the last event back", async () => {
    const { pages, session, shownIds, whole } = setup(12, 50);
    pages.answerAll();
    session.stepBack();
    for (let round = 0; round < 40 && session.view().loading; round++) await settle();
    expect(shownIds()).toEqual(whole.slice(0, -1));
  });

  it("after dispose, a page that arrives changes nothing", async () => {
    const { pages, session, begun } = setup(12, 50);
    session.play();
    session.dispose();
    pages.answer();
    await settle();
    expect(begun()).toBe(0);
    expect(session.view().playing).toBe(false);
  });

  it("a seek as the first control keeps what shows until its place is read", async () => {
    const { pages, session, shownIds, whole, begun } = setup(40, 30);
    session.seek(session.view().duration / 2);
    for (let round = 0; round < 3; round++) {
      pages.answer();
      await settle();
    }
    // Still reading towards the middle: nothing replaced what shows yet.
    expect(begun()).toBe(0);
    expect(session.view().loading).toBe(true);
    pages.answerAll();
    for (let round = 0; round < 40 && session.view().loading; round++) await settle();
    expect(begun()).toBe(1);
    const shown = shownIds();
    expect(shown.length).toBeGreaterThan(whole.length / 3);
    expect(shown).toEqual(whole.slice(0, shown.length));
  });

  it("a failed read says so and leaves nothing waiting", async () => {
    const failures: string[] = [];
    const session = new ReplaySession({
      source: {
        kind: "paged",
        planner: new ReplayPlanner("xml"),
        reader: { next: async () => ({ ok: false, error: "offline" }) },
        recordCount: 100,
        duration: 1000,
      },
      speed: 1,
      begin: () => {},
      show: () => {},
      changed: () => {},
      failed: (message) => failures.push(message),
    });
    session.play();
    expect(session.view().loading).toBe(true);
    await settle();
    expect(failures).toEqual(["offline"]);
    expect(session.view().loading).toBe(false);
  });
});
