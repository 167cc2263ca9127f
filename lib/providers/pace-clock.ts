/** Something a paced stream waits with: woken once its pause is over. */
export interface PaceWaiter {
  wake(): void;
}

/**
 * One timer for every paced stream in the process (issue 19: at 300 demo runs a `setTimeout`,
 * a promise and an abort listener per piece were a visible share of each record's CPU). A
 * waiter joins the bucket of the millisecond it is due in; a single `setTimeout` is armed for
 * the earliest bucket and, when it goes off, wakes every waiter due by then and is armed for
 * the next. Each waiter keeps its own due time, so every stream keeps its own pace (rounded
 * up to the millisecond, as `setTimeout` rounds).
 */
const buckets = new Map<number, PaceWaiter[]>();
/** The buckets' due times, earliest first. */
const dueTimes: number[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let armedFor = Number.POSITIVE_INFINITY;
let waking = false;

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
  waking = true;
  try {
    while (dueTimes.length > 0 && (dueTimes[0] ?? 0) <= now + EARLY_MS) {
      const due = dueTimes.shift() ?? 0;
      const bucket = buckets.get(due) ?? [];
      buckets.delete(due);
      // A waiter woken here may wait again: it joins a later bucket (due > now).
      for (const waiter of bucket) waiter.wake();
    }
  } finally {
    waking = false;
    const next = dueTimes[0];
    if (next !== undefined) arm(next);
  }
}

function insertSorted(due: number) {
  // Streams mostly wait the same pace, so a new due time is nearly always the latest.
  let index = dueTimes.length;
  while (index > 0 && (dueTimes[index - 1] ?? 0) > due) index--;
  dueTimes.splice(index, 0, due);
}
