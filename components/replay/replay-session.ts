import type { ForwardReader } from "@/lib/client/record-pages";
import {
  createReplayClock,
  type ReplayClock,
  type ReplayClockState,
  type ReplaySpeed,
  type TimerHost,
} from "@/lib/replay/clock";
import type { ReplayFrame, StepUnit } from "@/lib/replay/cursor";
import type { ReplayDiff } from "@/lib/replay/diff";
import type { RunSpan } from "@/lib/replay/run-spans";
import type { TimedRecord } from "@/lib/replay/timeline";
import { ReplayFeed } from "./replay-feed";
import { estimatedDuration, type ReplayPlan, type ReplayPlanner } from "./replay-plan";

/** Entries planned ahead of the play head below which the next page is read. */
export const READ_AHEAD_ENTRIES = 2000;

export interface SessionView {
  playing: boolean;
  speed: ReplaySpeed;
  /** ms on the replay's clock (where a seek goes while its place is read). */
  position: number;
  /** Records shown, of the planned entries. */
  index: number;
  /** Entries planned so far (of `entries`), and differences found (of `diffs`). */
  planned: number;
  differences: number;
  /** The replay's whole length in ms: estimated unless `exact`. */
  duration: number;
  /** `duration` is the whole length: all planned, or known from the transcript's runs. */
  exact: boolean;
  /** ms planned so far: what can be played or sought at once. */
  loaded: number;
  complete: boolean;
  /** Records are being read for what was asked (to start, a place sought, the play head). */
  loading: boolean;
}

/** Where a replay's records come from: a plan made of every record, or read from the start. */
export type ReplaySource =
  | { kind: "whole"; plan: ReplayPlan }
  | {
      kind: "paged";
      planner: ReplayPlanner;
      reader: ForwardReader;
      recordCount: number;
      /** The length to show until the first runs are planned. */
      duration: number;
      /** The transcript's runs, when known before the first page (its whole length). */
      runs?: readonly RunSpan[];
    };

export interface ReplaySessionOptions {
  source: ReplaySource;
  speed: ReplaySpeed;
  host?: TimerHost;
  /** Entries planned ahead of the play head below which the next page is read. */
  readAhead?: number;
  /** The first frame is coming: clear what shows. */
  begin(): void;
  /** A frame to fold into what shows (with `reset`, from nothing). */
  show(frame: ReplayFrame): void;
  /** Something in `view()` changed. */
  changed(): void;
  /** A read failed: say so (the replay stays where it is). */
  failed(message: string): void;
}

/**
 * One replay, from the first control used to exit: a replay clock over a plan that, for a long
 * transcript, grows as it is read. Play starts once the first runs are planned, and pages are
 * read ahead of the play head (`READ_AHEAD_ENTRIES`), one at a time; at the end of what is
 * planned, playback waits for the next page. A seek or step past what is planned reads up to
 * there first (`loading`), then goes; nothing is shown that was not planned in order.
 */
export class ReplaySession {
  private clock: ReplayClock | null = null;
  private readonly feed: ReplayFeed | null;
  private readonly planner: ReplayPlanner | null;
  private readonly wholePlan: ReplayPlan | null;
  private speed: ReplaySpeed;
  /** What to do once the clock can be made, and when that is (`withClock`). */
  private queued: ((clock: ReplayClock) => void) | null = null;
  private ready: () => boolean = () => true;
  /**
   * A seek whose place is being read: where to (`Infinity`: the end), where the play head
   * shows meanwhile, and whether playing goes on after it.
   */
  private seeking: { target: number; shown: number; resume: boolean } | null = null;
  private reads = 0;
  private disposed = false;

  constructor(private readonly options: ReplaySessionOptions) {
    this.speed = options.speed;
    const { source } = options;
    if (source.kind === "whole") {
      this.wholePlan = source.plan;
      this.planner = null;
      this.feed = null;
    } else {
      this.wholePlan = null;
      this.planner = source.planner;
      this.feed = new ReplayFeed(source.planner, source.reader, source.recordCount, source.runs, {
        planned: (entries, complete) => {
          this.clock?.extend(entries, complete);
          options.changed();
        },
        failed: (message) => {
          // Nothing more comes: the clock must not wait at the end of what was read for good.
          this.clock?.pause();
          options.failed(message);
          options.changed();
        },
      });
    }
  }

  /** The planned entries so far (all of them for a whole plan). */
  get entries(): readonly TimedRecord[] {
    return this.wholePlan?.entries ?? this.planner?.entries ?? [];
  }

  get diffs(): readonly ReplayDiff[] {
    return this.wholePlan?.diffs ?? this.planner?.diffs ?? [];
  }

  view(): SessionView {
    const state = this.clock?.state();
    const complete = this.planner === null || this.planner.complete;
    const loaded = this.wholePlan?.duration ?? this.planner?.duration ?? 0;
    const exact = complete ? loaded : this.feed?.exactDuration();
    const duration = exact ?? this.estimate();
    return {
      playing: (state?.playing ?? false) || this.seeking?.resume === true,
      speed: this.speed,
      position: this.seeking?.shown ?? state?.position ?? 0,
      index: state?.index ?? 0,
      planned: this.entries.length,
      differences: this.diffs.length,
      duration,
      exact: exact !== undefined,
      loaded,
      complete,
      loading: this.reads > 0 || this.queued !== null || state?.waiting === true,
    };
  }

  play(): void {
    this.withClock((clock) => {
      // Play goes on from where the play head shows: the place a seek is reading up to.
      if (this.seeking !== null) this.seeking.resume = true;
      else clock.play();
    });
  }

  pause(): void {
    this.queued = null;
    if (this.seeking !== null) this.seeking.resume = false;
    this.clock?.pause();
    this.options.changed();
  }

  setSpeed(speed: ReplaySpeed): void {
    this.speed = speed;
    if (this.clock === null) this.options.changed();
    else this.clock.setSpeed(speed);
  }

  stepForward(unit?: StepUnit): void {
    this.withClock((clock) => {
      this.cancelSeek();
      const { index, length } = clock.state();
      if (index < length || this.planner === null || this.planner.complete) {
        clock.stepForward(unit);
        return;
      }
      clock.pause();
      void this.readThen(
        () => (this.planner?.entries.length ?? 0) > index,
        () => clock.stepForward(unit),
      );
    });
  }

  stepBack(unit?: StepUnit): void {
    if (this.clock !== null) {
      this.cancelSeek();
      this.clock.stepBack(unit);
      return;
    }
    // From the whole transcript: all of it (re-parsed), then the last event taken back.
    this.withClock(
      (clock) => {
        clock.seek(Number.POSITIVE_INFINITY);
        clock.stepBack(unit);
      },
      () => this.planner === null || this.planner.complete,
    );
  }

  seek(position: number): void {
    const { duration, complete } = this.view();
    // The end of the length shown is the end (an estimate's, wherever it turns out to be).
    const target = !complete && position >= duration ? Number.POSITIVE_INFINITY : position;
    this.withClock(
      (clock) => this.seekOn(clock, target, Math.min(position, duration)),
      () => this.planned(target),
    );
  }

  /** What is planned reaches `target` ms (or is all there is). */
  private planned(target: number): boolean {
    return this.planner === null || this.planner.complete || this.planner.duration >= target;
  }

  /** Seeks to `target`, first reading up to it (the play head shows at `shown` meanwhile). */
  private seekOn(clock: ReplayClock, target: number, shown: number): void {
    if (this.planned(target)) {
      const resume = this.seeking?.resume;
      this.seeking = null;
      clock.seek(target);
      if (resume === true) playOn(clock);
      return;
    }
    const resume = this.seeking?.resume ?? clock.state().playing;
    clock.pause();
    const first = this.seeking === null;
    this.seeking = { target, shown, resume };
    this.options.changed();
    if (!first) return; // the read under way goes on to the new place
    void this.readThen(
      () => this.seeking === null || this.planned(this.seeking.target),
      () => {
        const sought = this.seeking;
        this.seeking = null;
        if (sought === null) return;
        clock.seek(sought.target);
        if (sought.resume) playOn(clock);
      },
    ).then((ok) => {
      // A read failed (and said so): the play head goes back to where the clock is, paused.
      if (ok || this.disposed) return;
      this.seeking = null;
      this.options.changed();
    });
  }

  /** A step or a seek back leaves a seek still reading: the play head is where they put it. */
  private cancelSeek(): void {
    if (this.seeking === null) return;
    this.seeking = null;
    this.options.changed();
  }

  dispose(): void {
    this.disposed = true;
    this.feed?.stop();
    this.clock?.dispose();
    this.clock = null;
    this.queued = null;
    this.seeking = null;
  }

  /**
   * Runs `action` on the clock. Without one yet, it is made once `ready()` (by default: once
   * the first runs are planned), and what shows stays until then; the last action asked for
   * meanwhile is the one run.
   */
  private withClock(
    action: (clock: ReplayClock) => void,
    ready: () => boolean = () => this.entries.length > 0,
  ): void {
    if (this.disposed) return;
    if (this.clock !== null) {
      action(this.clock);
      return;
    }
    const first = this.queued === null;
    this.queued = action;
    this.ready = ready;
    if (this.feed === null) {
      this.start();
      return;
    }
    this.options.changed();
    if (!first) return;
    void this.readThen(
      () => this.entries.length > 0 && this.ready(),
      () => this.start(),
    ).then((ok) => {
      // A read failed (and said so): nothing waits any more; the next control tries again.
      if (ok || this.disposed) return;
      this.queued = null;
      this.options.changed();
    });
  }

  private start(): void {
    const action = this.queued;
    this.queued = null;
    if (action === null) return;
    this.options.begin();
    this.clock = createReplayClock({
      entries: this.entries,
      speed: this.speed,
      complete: this.planner === null || this.planner.complete,
      ...(this.options.host === undefined ? {} : { host: this.options.host }),
      onFrame: (frame, state) => {
        if (frame.reset || frame.records.length > 0) this.options.show(frame);
        this.readAhead(state);
        this.options.changed();
      },
    });
    action(this.clock);
  }

  /**
   * Reads until `enough()`, shown as loading, then runs `then` (not after a failure or exit).
   * Answers whether it did.
   */
  private async readThen(enough: () => boolean, then: () => void): Promise<boolean> {
    if (this.feed === null) {
      then();
      return true;
    }
    this.reads++;
    this.options.changed();
    const ok = (await this.feed.readUntil(enough)) && !this.disposed;
    this.reads--;
    if (ok) then();
    if (!this.disposed) this.options.changed();
    return ok;
  }

  private readAhead(state: ReplayClockState): void {
    if (this.feed === null || this.feed.busy || state.complete) return;
    const ahead = this.options.readAhead ?? READ_AHEAD_ENTRIES;
    if (state.waiting || state.length - state.index < ahead) void this.feed.readMore();
  }

  private estimate(): number {
    const planner = this.planner;
    if (planner === null || this.feed === null) return 0;
    if (planner.records === 0 && this.options.source.kind === "paged")
      return this.options.source.duration;
    return estimatedDuration(planner, this.feed.recordCount);
  }
}

/** Plays on after a seek, unless it went to the very end (play would start over). */
function playOn(clock: ReplayClock): void {
  const { index, length, complete } = clock.state();
  if (index < length || !complete) clock.play();
}
