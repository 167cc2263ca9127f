/** The in-memory side of the message tree (`message-trie.ts`), for `memory-store.ts`. */
import { StoreError } from "./errors";
import { createPathCache, internMessages, messagesOf, type StoredNode } from "./message-trie";
import type { StoredRecord } from "./store";
import { decodeRecord } from "./stored-json";

interface Node extends StoredNode {
  transcriptId: string;
}

export interface MemoryMessages {
  intern(transcriptId: string, bodies: readonly string[]): number;
  /** A stored row back as a record, its messages resolved. */
  decode(row: { seq: number; runId: string; body: string; node?: number }): StoredRecord;
}

export function memoryMessages(): MemoryMessages {
  const nodes = new Map<number, Node>();
  const children = new Map<string, number[]>();
  const cache = createPathCache();
  const childKey = (transcriptId: string, parent: number) => `${parent}\u0000${transcriptId}`;

  return {
    intern(transcriptId, bodies) {
      return internMessages(
        {
          findChild: (parent, body) =>
            children
              .get(childKey(transcriptId, parent))
              ?.find((id) => nodes.get(id)?.body === body),
          addChild(parent, body) {
            const id = nodes.size + 1;
            nodes.set(id, { transcriptId, parent, body });
            const key = childKey(transcriptId, parent);
            const siblings = children.get(key);
            if (siblings === undefined) children.set(key, [id]);
            else siblings.push(id);
            return id;
          },
        },
        cache,
        transcriptId,
        bodies,
      );
    },

    decode(row) {
      const messages =
        row.node === undefined
          ? undefined
          : messagesOf(
              row.node,
              (id) => nodes.get(id),
              (id) =>
                new StoreError(
                  "corrupt",
                  `Record ${row.seq} refers to missing message node ${id}.`,
                ),
            );
      return decodeRecord(row.body, row, messages);
    },
  };
}
