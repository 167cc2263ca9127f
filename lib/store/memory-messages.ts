import {
  createPathCache,
  decodeRecordRows,
  internMessages,
  type SharedMessages,
  type StoredNode,
} from "./message-trie";
import type { StoredRecord } from "./store";

interface Node extends StoredNode {
  transcriptId: string;
}

export interface StoredRow {
  seq: number;
  runId: string;
  body: string;
  /** A request's last message node. */
  node?: number;
}

export interface MemoryMessages {
  intern(transcriptId: string, bodies: readonly string[]): number;
  /**
   * Stored rows back as records, their messages resolved (shared between the rows, and with
   * the recent requests of earlier pages when `shared` carries them).
   */
  decode(rows: readonly StoredRow[], shared?: SharedMessages): StoredRecord[];
}

export function memoryMessages(): MemoryMessages {
  const nodes = new Map<number, Node>();
  const children = new Map<string, number[]>();
  const cache = createPathCache();
  const childKey = (transcriptId: string, parent: number) => `${parent}\u0000${transcriptId}`;
  const lookup = (id: number) => nodes.get(id);

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

    decode(rows, shared) {
      const stored = rows.map((row) => ({
        seq: row.seq,
        run_id: row.runId,
        body: row.body,
        messages_node: row.node ?? null,
      }));
      return decodeRecordRows(stored, lookup, shared);
    },
  };
}
