/** Something a paced stream waits with: woken once its pause is over. */
export interface PaceWaiter {
  wake(): void;
}

/**
 * One timer for every paced stream in the process (issue 19: at 300 demo runs a `setTimeout`,
 * a promise and an abort listener per piece were a visible share of each record's CPU). A
 * waiter joins the bucket of the millisecond it is due in; a single `setTimeout` is armed for
 * the earliest bucket and, when it goes off, wakes the waiters due by then and is armed for
 * the next. Each waiter keeps its own due time, so every stream keeps its own pace (rounded
 * up to the millisecond, as `setTimeout` rounds).
 *
 * At most `WAKE_SLICE` waiters are woken per turn of the event loop; the rest are woken on
 * the next turns (`setImmediate`). Node accepts one new connection per turn of its loop
 * (libuv stopped accepting in a loop), so a turn that woke all 300 demo runs at once (their
 * records, parsing and publishing: 20–30 ms) let one waiting connection in per 20–30 ms:
 * the 200th `POST /api/runs` of a burst waited seconds before the server even saw it.
 */
const buckets = new Map<number, PaceWaiter[]>();
/** The buckets' due times, earliest first. */
const dueTimes: number[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** When the timer goes off; `-Infinity` while the next slice is queued (nothing to arm then). */
let armedFor = Number.POSITIVE_INFINITY;
let waking = false;

/**
 * Waiters woken in one turn of the event loop. A demo run's piece costs about 0.1–0.2 ms
 * (parsing, its records, publishing), so a slice is a few milliseconds.
 */
export const WAKE_SLICE = 16;

/**
 * A timer may go off a little before `performance.now()` reaches its time (Node counts from
 * the event loop's cached clock); a bucket due within this is woken rather than waited for again.
 */
const EARLY_MS = 1;

/** Wakes `waiter` once `ms` have passed; the returned due time cancels it (`cancelWake`). */
export function wakeAfter(waiter: PaceWaiter, ms: number): number {
  const due = Math.ceil(performance.now() + ms);
  let bucket = buckets.get(due);
  if (bucket === undefined) {
    bucket = [];
    buckets.set(due, bucket);
    insertSorted(due);
  }
  bucket.push(waiter);
  if (!waking && due < armedFor) arm(due);
  return due;
}

/** `waiter` is not woken for `due` after all (its stream was aborted or cancelled). */
export function cancelWake(waiter: PaceWaiter, due: number): void {
  const bucket = buckets.get(due);
  if (bucket === undefined) return;
  const index = bucket.indexOf(waiter);
  if (index >= 0) bucket.splice(index, 1);
  // An empty bucket stays until its time: the timer is not moved for a cancel.
}

/** How many waiters the clock holds (for tests). */
export function waitingCount(): number {
  let count = 0;
  for (const bucket of buckets.values()) count += bucket.length;
  return count;
}

function arm(due: number) {
  if (timer !== undefined) clearTimeout(timer);
  armedFor = due;
  timer = setTimeout(wakeDue, Math.max(0, due - performance.now()));
}

function wakeDue() {
  timer = undefined;
  armedFor = Number.POSITIVE_INFINITY;
  const now = performance.now();
  let woken = 0;
  waking = true;
  try {
    while (dueTimes.length > 0 && (dueTimes[0] ?? 0) <= now + EARLY_MS) {
      const due = dueTimes[0] ?? 0;
      const bucket = buckets.get(due) ?? [];
      // Taken out before any is woken, so a cancel from a woken waiter finds only the rest.
      const slice = bucket.splice(0, WAKE_SLICE - woken);
      if (bucket.length === 0) {
        dueTimes.shift();
        buckets.delete(due);
      }
      // A waiter woken here may wait again: it joins a later bucket (due > now).
      for (const waiter of slice) waiter.wake();
      woken += slice.length;
      if (woken === WAKE_SLICE) break;
    }
  } finally {
    waking = false;
    const next = dueTimes[0];
    if (next !== undefined && woken === WAKE_SLICE && next <= now + EARLY_MS) {
      // More are due: woken on the next turn, after the loop has polled (connections, reads).
      armedFor = Number.NEGATIVE_INFINITY;
      setImmediate(wakeDue);
    } else if (next !== undefined) arm(next);
  }
}

function insertSorted(due: number) {
  // Streams mostly wait the same pace, so a new due time is nearly always the latest.
  let index = dueTimes.length;
  while (index > 0 && (dueTimes[index - 1] ?? 0) > due) index--;
  dueTimes.splice(index, 0, due);
}
