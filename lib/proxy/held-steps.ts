/**
 * How a proxied call's recording steps reach the recording queue (`deferred-recording.ts`):
 * at once, or held while work its `begin` needs runs off the main thread (`prepare`: a
 * compressed request body's decoding), then released in order.
 *
 * Held calls are released in the order they first queued a step, and a call that queues its
 * first step while an earlier one is held waits behind it, though it has nothing to prepare:
 * otherwise a later call (the agent's next, sent once it had its answer) could begin before an
 * earlier one whose body was still decoding, and join its conversation before that call had
 * begun (a `previous_response_id` not yet known, turns of one session out of order). Held
 * calls are prepared one at a time, so decoding holds at most one body's decoded size in memory
 * (`WIRESCOPE_PROXY_MAX_BODY_MB`), however many agents send compressed bodies at once.
 */
import type { RecordingQueue } from "./recording-queue";

type Step = () => void;

/** Per queue: how many calls are held, and when the last of them is released. */
interface Line {
  held: number;
  last: Promise<void>;
}

const lines = new WeakMap<RecordingQueue, Line>();

function lineOf(queue: RecordingQueue): Line {
  let line = lines.get(queue);
  if (line === undefined) {
    line = { held: 0, last: Promise.resolve() };
    lines.set(queue, line);
  }
  return line;
}

/** A call's way onto `queue`: each step pushed now, or held (see above) and pushed in order. */
export function stepsOnto(
  queue: RecordingQueue,
  prepare?: () => Promise<void>,
): (step: Step) => void {
  let held: Step[] | undefined;
  let first = true;
  const hold = (line: Line, steps: Step[]) => {
    line.held++;
    // One call prepared at a time, once the calls before it are released: they go first
    // anyway, and a few hundred bytes of br can take 32 MiB and a tenth of a second to decode.
    const prepared = line.last.then(prepare).catch((error: unknown) => {
      console.error("wirescope: could not prepare a proxied call's recording:", error);
    });
    const released = prepared.then(() => {
      for (const step of steps) queue.push(step);
      held = undefined;
      line.held--;
    });
    line.last = released;
  };
  return (step) => {
    if (first) {
      first = false;
      const line = lineOf(queue);
      if (prepare !== undefined || line.held > 0) {
        held = [step];
        hold(line, held);
        return;
      }
    }
    if (held === undefined) queue.push(step);
    else held.push(step);
  };
}
