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
  /** Drops every node of a transcript (purged): nodes are never shared between transcripts. */
  forget(transcriptId: string): void;
  /** How many nodes are held (what a purge must free). */
  readonly size: number;
}

export function memoryMessages(): MemoryMessages {
  const nodes = new Map<number, Node>();
  const children = new Map<string, number[]>();
  /** Each transcript's nodes, so a purge frees them without a walk over every node. */
  const owned = new Map<string, number[]>();
  /** The last id given: ids are never reused, even after a purge frees some. */
  let lastId = 0;
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
            const id = ++lastId;
            nodes.set(id, { transcriptId, parent, body });
            const own = owned.get(transcriptId);
            if (own === undefined) owned.set(transcriptId, [id]);
            else own.push(id);
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

    forget(transcriptId) {
      for (const id of owned.get(transcriptId) ?? []) {
        const node = nodes.get(id);
        if (node !== undefined) children.delete(childKey(transcriptId, node.parent));
        nodes.delete(id);
      }
      owned.delete(transcriptId);
      // A transcript made again under the id must not start from the freed nodes' path.
      cache.delete(transcriptId);
    },

    get size() {
      return nodes.size;
    },
  };
}
