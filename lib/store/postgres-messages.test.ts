import type { PoolClient } from "pg";
import { describe, expect, it } from "vitest";
import { sharedMessages } from "./message-trie";
import { postgresMessages } from "./postgres-messages";
import { PG } from "./postgres-queries";
import type { NodeRow, RecordRow } from "./sqlite-queries";

/**
 * A conversation's message tree as PostgreSQL would hold it, behind a client that answers the
 * chain query the way its SQL does (up from each node of $1, stopping at nodes of $2) and
 * counts the node rows it sends back.
 */
function conversation(turns: number) {
  const nodes = new Map<number, NodeRow>();
  const rows: RecordRow[] = [];
  for (let turn = 0; turn < turns; turn++) {
    // Each turn's request repeats the one before it and adds two messages.
    for (const role of ["user", "assistant"]) {
      const id = nodes.size + 1;
      nodes.set(id, {
        id,
        parent: id - 1,
        body: JSON.stringify({ role, content: `${role} ${turn}` }),
      });
    }
    const body = JSON.stringify({
      kind: "request",
      turn,
      t: 0,
      provider: "p",
      model: "m",
      messages: [],
      settings: {},
    });
    rows.push({ seq: turn + 1, run_id: "r", body, messages_node: nodes.size });
  }
  let sent = 0;
  const client = {
    async query(text: string, values: unknown[]) {
      if (text !== PG.selectChains) throw new Error(`unexpected query: ${text}`);
      const [ends, stops = []] = values as [number[], number[]?];
      const found = new Map<number, NodeRow>();
      for (const end of ends) {
        for (let id = end; id !== 0 && !found.has(id); ) {
          const node = nodes.get(id) as NodeRow;
          found.set(id, node);
          id = node.parent;
          if (stops.includes(id)) break;
        }
      }
      sent += found.size;
      return { rows: [...found.values()] };
    },
  } as unknown as PoolClient;
  return { nodes, rows, client, sent: () => sent };
}

describe("PostgreSQL message chains on a paged read", () => {
  it("fetch each node about once: a page reads chains only down to what earlier pages fetched", async () => {
    const { nodes, rows, client, sent } = conversation(60);
    const messages = postgresMessages();
    const shared = sharedMessages();
    const decoded = [];
    for (let page = 0; page < rows.length; page += 10)
      decoded.push(
        ...(await messages.decode(client, "t", rows.slice(page, page + 10), false, shared)),
      );
    // Every request reads back whole: turn n holds 2 (n + 1) messages, the last its own.
    decoded.forEach((record, turn) => {
      if (record.kind !== "request") throw new Error("not a request");
      expect(record.messages).toHaveLength(2 * (turn + 1));
      expect(record.messages.at(-1)).toEqual({ role: "assistant", content: `assistant ${turn}` });
    });
    // Each of the 120 nodes once; reading every request's chain to the root on each page
    // fetched 20, 40, … 120 nodes: 420 in all.
    expect(sent()).toBe(nodes.size);
  });
});
