/** The in-memory side of the message tree (`message-trie.ts`), for `memory-store.ts`. */
import { StoreError } from "./errors";
import {
  createPathCache,
  internMessages,
  keepRecentPaths,
  messageParser,
  pathOf,
  type SharedMessages,
  type StoredNode,
} from "./message-trie";
import type { StoredRecord } from "./store";
import { decodeRecord, decodeStoredJson } from "./stored-json";

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
      const messagesAt = messageParser(
        lookup,
        (body, id) => decodeStoredJson(body, `message node ${id}`),
        shared?.parsed,
      );
      const paths: number[][] = [];
      const records = rows.map((row) => {
        if (row.node === undefined) return decodeRecord(row.body, row, undefined);
        const path = pathOf(
          row.node,
          lookup,
          (id) =>
            new StoreError("corrupt", `Record ${row.seq} refers to missing message node ${id}.`),
        );
        paths.push(path);
        return decodeRecord(row.body, row, messagesAt(path));
      });
      if (shared !== undefined) keepRecentPaths(shared, paths);
      return records;
    },
  };
}
