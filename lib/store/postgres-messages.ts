/**
 * The PostgreSQL side of the message tree (`message-trie.ts`): interning a request's messages
 * inside the append transaction, and resolving them on read from nodes fetched in one query
 * (a whole transcript's, or the chains of the requests on a page down to the nodes earlier
 * pages of the same read fetched).
 */
import type { PoolClient } from "pg";
import { StoreError } from "./errors";
import {
  createPathCache,
  decodeRecordRows,
  internMessagesAsync,
  type SharedMessages,
  type StoredNode,
} from "./message-trie";
import { PG } from "./postgres-queries";
import type { NodeRow, RecordRow } from "./sqlite-queries";
import type { StoredRecord } from "./store";

export interface PostgresMessages {
  /** Inside the append transaction, which holds the transcript's row lock. */
  intern(client: PoolClient, transcriptId: string, bodies: readonly string[]): Promise<number>;
  /** After a rolled-back append: the cached path may name nodes that were never committed. */
  forget(transcriptId: string): void;
  /**
   * Rows of one transcript as records; `whole` loads all its nodes (every row is being read);
   * `shared` carries message values between the pages of one paged read.
   */
  decode(
    client: PoolClient,
    transcriptId: string,
    rows: readonly RecordRow[],
    whole: boolean,
    shared?: SharedMessages,
  ): Promise<StoredRecord[]>;
}

/**
 * One per store (per pool). Node ids come from a sequence that never hands an id out twice,
 * even after a rollback, and nodes never change, so a cached path stays true whichever
 * instance appends next.
 */
export function postgresMessages(): PostgresMessages {
  const cache = createPathCache();

  return {
    intern(client, transcriptId, bodies) {
      return internMessagesAsync(
        async (parent, body) => {
          const result = await client.query<{ id: number }>(PG.internChild, [
            transcriptId,
            parent,
            body,
          ]);
          const id = result.rows[0]?.id;
          if (id === undefined) throw new StoreError("corrupt", "A message node was not stored.");
          return id;
        },
        cache,
        transcriptId,
        bodies,
      );
    },

    forget(transcriptId) {
      cache.delete(transcriptId);
    },

    async decode(client, transcriptId, rows, whole, shared) {
      // The nodes earlier pages of the same read fetched (`shared`): a page's chains are read
      // only down to them (a known node's ancestors are known: pruning keeps whole paths), so
      // a paged walk of a long conversation fetches each node about once, not every request's
      // whole context again on every page.
      const known = shared?.nodes ?? new Map<number, StoredNode>();
      const ends = rows.flatMap((row) =>
        row.messages_node === null || known.has(row.messages_node) ? [] : [row.messages_node],
      );
      if (ends.length > 0) {
        const result = whole
          ? await client.query<NodeRow>(PG.selectNodes, [transcriptId])
          : await client.query<NodeRow>(PG.selectChains, [ends, [...known.keys()]]);
        for (const node of result.rows) known.set(node.id, node);
      }
      const lookup = (id: number) => known.get(id);
      return decodeRecordRows(rows, lookup, shared);
    },
  };
}
