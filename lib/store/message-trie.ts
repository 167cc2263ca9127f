/**
 * Request records hold a turn's whole assembled context, so storing them verbatim grows with
 * the square of a conversation. Each store keeps a transcript's messages in a prefix tree
 * instead: a node is one message (its JSON text) under the node of the message before it, and
 * a request record keeps only the id of the node of its last message. A message sequence is
 * stored once however many later requests repeat it as their prefix, so stored bytes grow
 * with the conversation, not its square. Node ids are never reused and nodes never change,
 * so a path read once stays true for ever (cached across calls and connections alike).
 */

import { StoreError } from "./errors";
import type { StoredRecord } from "./store";
import { decodeRecord, decodeStoredJson } from "./stored-json";

/** The root: the node of an empty message list. Real nodes have ids ≥ 1. */
export const ROOT_NODE = 0;

/** What the trie needs from a store: synchronous, inside the caller's transaction. */
export interface NodeAccess {
  /** The child of `parent` whose message text is exactly `body`, if any. */
  findChild(parent: number, body: string): number | undefined;
  /** Adds a node and returns its id. */
  addChild(parent: number, body: string): number;
}

export interface PathCache {
  get(transcriptId: string): CachedPath | undefined;
  set(transcriptId: string, path: CachedPath): void;
  delete(transcriptId: string): void;
}

/** The node ids and message texts of one interned message list, root excluded. */
export interface CachedPath {
  nodes: number[];
  bodies: string[];
}

/**
 * Stores `bodies` (message JSON texts, in order) under the transcript's tree and returns the
 * node of the last one. Starts from the longest prefix shared with the transcript's last
 * interned list, so a conversation that only grows costs one comparison per old message.
 */
export function internMessages(
  access: NodeAccess,
  cache: PathCache,
  transcriptId: string,
  bodies: readonly string[],
): number {
  const { nodes, parent: start } = sharedPrefix(cache, transcriptId, bodies);
  let parent = start;
  for (let index = nodes.length; index < bodies.length; index++) {
    const body = bodies[index] as string;
    parent = access.findChild(parent, body) ?? access.addChild(parent, body);
    nodes.push(parent);
  }
  cache.set(transcriptId, { nodes, bodies: [...bodies] });
  return parent;
}

/** What a networked store gives the trie: find-or-add in one step, awaited. */
export type AsyncNodeAccess = (parent: number, body: string) => Promise<number>;

/** `internMessages` for a store whose node access is asynchronous (PostgreSQL). */
export async function internMessagesAsync(
  findOrAdd: AsyncNodeAccess,
  cache: PathCache,
  transcriptId: string,
  bodies: readonly string[],
): Promise<number> {
  const { nodes, parent: start } = sharedPrefix(cache, transcriptId, bodies);
  let parent = start;
  for (let index = nodes.length; index < bodies.length; index++) {
    parent = await findOrAdd(parent, bodies[index] as string);
    nodes.push(parent);
  }
  cache.set(transcriptId, { nodes, bodies: [...bodies] });
  return parent;
}

/** The nodes of the longest prefix `bodies` shares with the transcript's last interned list. */
function sharedPrefix(
  cache: PathCache,
  transcriptId: string,
  bodies: readonly string[],
): { nodes: number[]; parent: number } {
  const previous = cache.get(transcriptId);
  const nodes: number[] = [];
  let parent = ROOT_NODE;
  if (previous === undefined) return { nodes, parent };
  for (let index = 0; index < bodies.length && previous.bodies[index] === bodies[index]; index++) {
    parent = previous.nodes[index] as number;
    nodes.push(parent);
  }
  return { nodes, parent };
}

/** A bounded most-recently-used cache of the last interned path per transcript. */
export function createPathCache(capacity = 32): PathCache {
  const paths = new Map<string, CachedPath>();
  return {
    get(transcriptId) {
      const path = paths.get(transcriptId);
      if (path === undefined) return undefined;
      paths.delete(transcriptId);
      paths.set(transcriptId, path);
      return path;
    },
    set(transcriptId, path) {
      paths.delete(transcriptId);
      paths.set(transcriptId, path);
      if (paths.size > capacity) {
        const oldest = paths.keys().next().value;
        if (oldest !== undefined) paths.delete(oldest);
      }
    },
    delete(transcriptId) {
      paths.delete(transcriptId);
    },
  };
}

/** A node as read back: its parent and its message text. */
export interface StoredNode {
  parent: number;
  body: string;
}

/**
 * The node ids from the root to `node` (root excluded), in order. `lookup` gives any node of
 * the transcript; a missing one means the data is damaged (`onMissing` says how to report it).
 */
export function pathOf(
  node: number,
  lookup: (id: number) => StoredNode | undefined,
  onMissing: (id: number) => Error,
): number[] {
  const ids: number[] = [];
  for (let id = node; id !== ROOT_NODE; ) {
    const found = lookup(id);
    if (found === undefined) throw onMissing(id);
    ids.push(id);
    id = found.parent;
  }
  return ids.reverse();
}

/**
 * Parses each node's message once per read: requests read together share their message
 * objects (an array of references each), so a read costs memory for the distinct messages,
 * not for every request's whole context. Callers treat records as read-only.
 */
export function messageParser(
  lookup: (id: number) => StoredNode | undefined,
  parse: (body: string, id: number) => unknown,
  parsed: Map<number, unknown> = new Map(),
): (path: readonly number[]) => unknown[] {
  return (path) =>
    path.map((id) => {
      if (parsed.has(id)) return parsed.get(id);
      const value = parse((lookup(id) as StoredNode).body, id);
      parsed.set(id, value);
      return value;
    });
}

/** A stored record's row, as both stores read it. */
export interface RecordRowOf {
  seq: number;
  run_id: string;
  body: string;
  messages_node: number | null;
}

/**
 * Rows as stored records, each request's messages resolved through `lookup` (parsed once per
 * read, shared between requests: see `messageParser`). A missing node is `corrupt` data.
 */
export function decodeRecordRows(
  rows: readonly RecordRowOf[],
  lookup: (id: number) => StoredNode | undefined,
  shared?: SharedMessages,
): StoredRecord[] {
  const messagesAt = messageParser(
    lookup,
    (body, id) => decodeStoredJson(body, `message node ${id}`),
    shared?.parsed,
  );
  const paths: number[][] = [];
  const records = rows.map((row) => {
    if (row.messages_node === null) return decodeRecord(row.body, positionOf(row), undefined);
    const path = pathOf(row.messages_node, lookup, (id) => missingNode(row.seq, id));
    paths.push(path);
    return decodeRecord(row.body, positionOf(row), messagesAt(path));
  });
  if (shared !== undefined) keepRecentPaths(shared, paths);
  return records;
}

const positionOf = (row: RecordRowOf) => ({ seq: row.seq, runId: row.run_id });

/**
 * How many of the latest requests keep sharing their message values with the next page of a
 * paged read (`Store.readRecordPages`). An export compares each request with the 16 before it
 * by identity (`lib/transcripts/request-refs.ts`), so a page boundary must not hide a match.
 */
export const SHARED_REQUEST_WINDOW = 16;

/**
 * The parsed messages one paged read carries from page to page: only those on the paths of
 * its last `SHARED_REQUEST_WINDOW` requests, so a long read holds a bounded number of contexts.
 */
export interface SharedMessages {
  parsed: Map<number, unknown>;
  /** The nodes read for those paths (a store that reads nodes per page need not read them again). */
  nodes: Map<number, StoredNode>;
  recent: number[][];
  /** Values kept before the next pruning (pruning walks every recent path: not every page). */
  limit: number;
}

export function sharedMessages(): SharedMessages {
  return { parsed: new Map(), nodes: new Map(), recent: [], limit: 0 };
}

/**
 * Notes the paths a page decoded and, once the values have doubled since the last time,
 * drops those no recent request refers to: at most twice what the recent requests hold.
 */
export function keepRecentPaths(shared: SharedMessages, paths: readonly number[][]): void {
  shared.recent.push(...paths);
  if (shared.recent.length > SHARED_REQUEST_WINDOW)
    shared.recent.splice(0, shared.recent.length - SHARED_REQUEST_WINDOW);
  if (Math.max(shared.parsed.size, shared.nodes.size) <= shared.limit) return;
  const kept = new Set(shared.recent.flat());
  shared.limit = 2 * kept.size + 1024;
  for (const id of shared.parsed.keys()) if (!kept.has(id)) shared.parsed.delete(id);
  for (const id of shared.nodes.keys()) if (!kept.has(id)) shared.nodes.delete(id);
}

function missingNode(seq: number, id: number): StoreError {
  return new StoreError("corrupt", `Record ${seq} refers to message node ${id}, which is missing.`);
}
