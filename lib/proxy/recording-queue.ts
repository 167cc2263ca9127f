/**
 * The proxy's recording work, one FIFO queue for the whole process, drained in slices.
 *
 * Recording a proxied call (reading its request, starting its transcript and run, parsing and
 * storing its chunks) runs after the bytes it records are on their way to the agent. When many
 * calls arrive at once, that work would otherwise run back to back in one turn of the event
 * loop, and every other call whose upstream answer is already waiting would wait behind it for
 * its first byte. Drained in slices of `sliceMs`, the loop gets back to the network between
 * slices, so a burst of recording holds another call's bytes up by about one slice.
 */
export interface RecordingQueue {
  /** Runs `task` after everything queued before it; a task that throws is logged. */
  push(task: () => void): void;
}

export interface RecordingQueueOptions {
  /** Work done before yielding to the event loop, in ms (default 2). */
  sliceMs?: number;
  now?: () => number;
  /** How the next slice is scheduled (default `setImmediate`: after pending I/O). */
  schedule?: (drain: () => void) => void;
  log?: (error: unknown) => void;
}

export function createRecordingQueue(options: RecordingQueueOptions = {}): RecordingQueue {
  const sliceMs = options.sliceMs ?? 2;
  const now = options.now ?? (() => performance.now());
  const schedule = options.schedule ?? ((drain: () => void) => void setImmediate(drain));
  const log =
    options.log ??
    ((error: unknown) => console.error("wirescope: could not record a proxied call:", error));
  let tasks: (() => void)[] = [];
  let head = 0;
  let scheduled = false;

  // `scheduled` stays true while a slice runs, so tasks pushed by a task join this drain.
  function drain(): void {
    const started = now();
    while (head < tasks.length) {
      const task = tasks[head] as () => void;
      tasks[head] = noop;
      head++;
      try {
        task();
      } catch (error) {
        log(error);
      }
      if (now() - started >= sliceMs) break;
    }
    if (head >= tasks.length) {
      tasks = [];
      head = 0;
      scheduled = false;
      return;
    }
    // Drop what ran, now and then, so a queue that never empties stays the size of its backlog.
    if (head > 1024) {
      tasks = tasks.slice(head);
      head = 0;
    }
    schedule(drain);
  }

  return {
    push(task) {
      tasks.push(task);
      if (!scheduled) {
        scheduled = true;
        schedule(drain);
      }
    },
  };
}

function noop(): void {}

/** The process's queue, shared by every proxied call so their recordings stay in order. */
export const recordingQueue: RecordingQueue = createRecordingQueue();
