import type { TranscriptRecord } from "../protocol/records";
import type { Store } from "../store";

/**
 * Appends a run's records to the store in order, as they happen: records that arrive while an
 * append is in flight go in the next one, so a slow disk batches instead of queueing
 * thousands of tiny transactions. `flush()` waits until everything written so far is stored.
 */
export function createRecordWriter(
  store: Store,
  transcriptId: string,
  runId: string,
  onError: (error: unknown) => void,
) {
  let pending: TranscriptRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;

  const drain = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await store.appendRecords(transcriptId, runId, batch);
      } catch (error) {
        onError(error);
      }
    }
    scheduled = false;
  };

  return {
    write(record: TranscriptRecord): void {
      pending.push(record);
      if (!scheduled) {
        scheduled = true;
        writing = writing.then(drain);
      }
    },
    async flush(): Promise<void> {
      await writing;
      if (pending.length > 0) {
        writing = writing.then(drain);
        await writing;
      }
    },
  };
}
