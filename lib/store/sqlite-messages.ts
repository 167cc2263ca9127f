/**
 * The SQLite side of the message tree (`message-trie.ts`): interning a request's messages on
 * append, and resolving them on read, from one preloaded map (whole transcripts) or by
 * walking each request's chain (pages).
 */
import type Database from "better-sqlite3";
import {
  createPathCache,
  decodeRecordRows,
  internMessages,
  type NodeAccess,
  type SharedMessages,
  type StoredNode,
} from "./message-trie";
import { type NodeRow, QUERIES, type RecordRow } from "./sqlite-queries";
import type { StoredRecord } from "./store";

export interface SqliteMessages {
  /** Inside the append transaction. */
  intern(transcriptId: string, bodies: readonly string[]): number;
  /** After a rolled-back append: its node ids may be handed out again. */
  forget(transcriptId: string): void;
  /**
   * Decodes rows of one transcript; `whole` preloads its nodes (every row is being read);
   * `shared` carries message values between the pages of one paged read.
   */
  decode(
    transcriptId: string,
    rows: readonly RecordRow[],
    whole: boolean,
    shared?: SharedMessages,
  ): StoredRecord[];
}

export function sqliteMessages(db: Database.Database): SqliteMessages {
  const findChild = db.prepare<[string, number, string], { id: number }>(QUERIES.findChild);
  const addChild = db.prepare<[string, number, string]>(QUERIES.addChild);
  const selectNodes = db.prepare<[string], NodeRow>(QUERIES.selectNodes);
  const selectChain = db.prepare<[number], NodeRow>(QUERIES.selectChain);
  const cache = createPathCache();

  return {
    intern(transcriptId, bodies) {
      const access: NodeAccess = {
        findChild: (parent, body) => findChild.get(transcriptId, parent, body)?.id,
        addChild: (parent, body) =>
          Number(addChild.run(transcriptId, parent, body).lastInsertRowid),
      };
      return internMessages(access, cache, transcriptId, bodies);
    },

    forget(transcriptId) {
      cache.delete(transcriptId);
    },

    decode(transcriptId, rows, whole, shared) {
      const known = shared?.nodes ?? new Map<number, StoredNode>();
      const hasRequests = rows.some((row) => row.messages_node !== null);
      if (whole && hasRequests)
        for (const node of selectNodes.iterate(transcriptId)) known.set(node.id, node);
      const lookup = (id: number): StoredNode | undefined => {
        // A known node's ancestors are known too (chains are read to the root or to a known
        // node, and pruning keeps whole paths), so the walk up stops at the first one.
        if (!known.has(id))
          for (const node of selectChain.iterate(id)) {
            if (known.has(node.id)) break;
            known.set(node.id, node);
          }
        return known.get(id);
      };
      return decodeRecordRows(rows, lookup, shared);
    },
  };
}
