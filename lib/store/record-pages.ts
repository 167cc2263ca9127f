/** `Store.readRecordPages` on top of a store's own page read, the same for every store. */
import { StoreError, transcriptNotFound } from "./errors";
import { normalizeRecordPage } from "./list-options";
import { type SharedMessages, sharedMessages } from "./message-trie";
import {
  DEFAULT_RECORD_PAGES_SIZE,
  type RecordPage,
  type RecordPagesOptions,
  type StoredRecord,
} from "./store";

/** One page read, with the messages carried over from the pages before it. */
export type SharedPageRead = (
  id: string,
  range: ReturnType<typeof normalizeRecordPage>,
  shared: SharedMessages,
) => RecordPage | null | Promise<RecordPage | null>;

/**
 * Pages of `after < seq ≤ through` (`through` defaults to the count the first page reports),
 * each read when the consumer asks for the next; one `SharedMessages` for the whole walk.
 */
export async function* recordPages(
  read: SharedPageRead,
  id: string,
  options: RecordPagesOptions = {},
): AsyncGenerator<StoredRecord[]> {
  const { after = 0, through, pageSize = DEFAULT_RECORD_PAGES_SIZE } = options;
  if (through !== undefined && (!Number.isSafeInteger(through) || through < 0))
    throw new StoreError("invalid", "through must be an integer ≥ 0.");
  const shared = sharedMessages();
  let last = through;
  let from = after;
  for (;;) {
    const before = last === undefined ? undefined : last + 1;
    const range = normalizeRecordPage({
      after: from,
      limit: pageSize,
      ...(before === undefined ? {} : { before }),
    });
    const page = await read(id, range, shared);
    if (page === null) throw transcriptNotFound(id);
    last ??= page.recordCount;
    const tail = page.records.at(-1);
    if (tail === undefined) return;
    yield page.records;
    if (tail.seq >= last || page.records.length < pageSize) return;
    from = tail.seq;
  }
}
