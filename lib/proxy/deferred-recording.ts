/**
 * A proxied call's recording as the relay drives it: every step queued on the recording queue,
 * so parsing and storing never sit between the upstream's bytes and the client's socket.
 */
import type { CapturedCall } from "./capture";
import { stepsOnto } from "./held-steps";
import type { RecordingQueue } from "./recording-queue";

/** What the relay tells the recorder: a `CapturedCall` that may not have begun yet. */
export type Recording = Omit<CapturedCall, "transcriptId">;

/**
 * A call's recording, every step of it queued on the recording queue: `begin` runs on first
 * use, so after the answer has been handed back (`response` is the first thing queued), and
 * before the first chunk is recorded; FIFO keeps chunks and the end in order. Once more than
 * `maxBacklog` bytes of the answer wait in the queue, the rest is not queued: the recording
 * ends where it fell behind (`fellBehind`), and the agent's answer goes on untouched.
 *
 * `prepare`: work `begin` needs done first, off the main thread (a compressed request body's
 * decoding), started when the answer has been handed back; the steps wait for it (still
 * counted in the backlog), then go to the queue in order, after those of calls that came
 * earlier (`held-steps.ts`).
 *
 * `now`: the call's dialect is known from its request (named by a header or `?dialect=`, or its
 * session's transcript has one), so it is a run, live and stoppable, before the upstream
 * answers: `begin` is queued at once instead of with the answer. Without it, an upstream that
 * took 8 s to answer left the call for 8 s (a whole answer: its whole length) neither listed
 * nor stoppable. A call whose dialect only its answer can show still begins with the answer.
 */
export function deferred(
  begin: () => CapturedCall | undefined,
  queue: RecordingQueue,
  maxBacklog: number,
  prepare?: () => Promise<void>,
  now = false,
): Recording {
  const enqueue = stepsOnto(queue, prepare);
  let begun = false;
  let call: CapturedCall | undefined;
  let waiting = 0;
  let behind = false;
  const started = () => {
    if (!begun) {
      begun = true;
      call = begin();
    }
    return call;
  };
  if (now) enqueue(started);
  return {
    response(status, contentType) {
      enqueue(() => started()?.response(status, contentType));
    },
    push(bytes) {
      if (behind) return;
      if (waiting + bytes.byteLength > maxBacklog) {
        behind = true;
        const message = `Recording fell more than ${maxBacklog} bytes behind the answer: the rest reached the client but is not recorded.`;
        enqueue(() => started()?.fellBehind(message));
        return;
      }
      waiting += bytes.byteLength;
      enqueue(() => {
        waiting -= bytes.byteLength;
        started()?.push(bytes);
      });
    },
    fellBehind(message) {
      enqueue(() => started()?.fellBehind(message));
    },
    end(outcome) {
      return new Promise<void>((resolve) => {
        enqueue(() => {
          const ending = started()?.end(outcome) ?? Promise.resolve();
          void ending.then(resolve, (error: unknown) => {
            console.error("wirescope: could not finish recording a proxied call:", error);
            resolve();
          });
        });
      });
    },
  };
}
