/** The SQLite store's statements, prepared once per connection (`sqlite-store.ts` runs them). */
import type Database from "better-sqlite3";
import type { SearchPartEnd } from "./search-parts";
import {
  type ListedRow,
  type LiveRunRow,
  QUERIES,
  type RecordRow,
  type RelicRow,
  type RunRow,
  type TranscriptRow,
} from "./sqlite-queries";

interface PageParameters {
  id: string;
  after: number;
  before: number;
  limit: number;
}

/** Every statement, prepared once per connection and reused. */
export function prepareStatements(db: Database.Database) {
  return {
    insertTranscript: db.prepare<[Record<string, string | number | null>]>(
      QUERIES.insertTranscript,
    ),
    insertSettings: db.prepare<[Record<string, string | null>]>(QUERIES.insertSettings),
    selectTranscript: db.prepare<[string], TranscriptRow>(QUERIES.selectTranscript),
    transcriptExists: db.prepare<[string], { found: number }>(QUERIES.transcriptExists),
    selectRecords: db.prepare<[string], RecordRow>(QUERIES.selectRecords),
    selectPageForward: db.prepare<[PageParameters], RecordRow>(QUERIES.selectPageForward),
    selectPageBackward: db.prepare<[PageParameters], RecordRow>(QUERIES.selectPageBackward),
    selectEvents: db.prepare<[string], RecordRow>(QUERIES.selectEvents),
    selectLastTurn: db.prepare<[{ id: string }], RecordRow>(QUERIES.selectLastTurn),
    listTranscripts: db.prepare<
      [{ query: string | null; limit: number; offset: number; source: string | null }],
      ListedRow
    >(QUERIES.listTranscripts),
    rename: db.prepare<[{ id: string; title: string; titleFolded: string; now: number }]>(
      QUERIES.rename,
    ),
    softDelete: db.prepare<[number, string]>(QUERIES.softDelete),
    restore: db.prepare<[string]>(QUERIES.restore),
    claimAbandonedImports: db.prepare<[string | null, number], { id: string }>(
      QUERIES.claimAbandonedImports,
    ),
    claimPurge: db.prepare<[string]>(QUERIES.claimPurge),
    purgeSlices: [QUERIES.purgeRecords, QUERIES.purgeSearchParts, QUERIES.purgeMessageNodes].map(
      (query) => db.prepare<[{ id: string; limit: number }]>(query),
    ),
    purgeTranscript: db.prepare<[string]>(QUERIES.purgeTranscript),
    reserveSeqs: db.prepare<
      [{ id: string; count: number; now: number; turn: number | null; turnAt: number }],
      { last_seq: number }
    >(QUERIES.reserveSeqs),
    insertRecord: db.prepare<
      [string, number, string, string, string, number | null, number | null]
    >(QUERIES.insertRecord),
    lastSearchPart: db.prepare<[string, string], SearchPartEnd>(QUERIES.lastSearchPart),
    extendSearchPart: db.prepare<[string, string, string, number]>(QUERIES.extendSearchPart),
    addSearchPart: db.prepare<[string, string, number, string, string]>(QUERIES.addSearchPart),
    selectRunRecords: db.prepare<[string, string, number], RecordRow>(QUERIES.selectRunRecords),
    insertRun: db.prepare<[string, string, number]>(QUERIES.insertRun),
    endRun: db.prepare<[number, string]>(QUERIES.endRun),
    selectRun: db.prepare<[string], RunRow>(QUERIES.selectRun),
    unfinishedRuns: db.prepare<[], RunRow>(QUERIES.unfinishedRuns),
    busyRun: db.prepare<[string], { run_id: string }>(QUERIES.busyRun),
    claimRun: db.prepare<[string, string, number, string]>(QUERIES.claimRun),
    renewLease: db.prepare<[string, number]>(QUERIES.renewLease),
    leaseUntil: db.prepare<[string], { lease_until: number }>(QUERIES.leaseUntil),
    forgetEndedLeases: db.prepare<[number]>(QUERIES.forgetEndedLeases),
    orphanedRuns: db.prepare<[{ now: number }], RunRow>(QUERIES.orphanedRuns),
    adoptRun: db.prepare<[{ runId: string; instance: string; now: number }]>(QUERIES.adoptRun),
    requestStop: db.prepare<[number, string]>(QUERIES.requestStop),
    stopRequests: db.prepare<[string], { run_id: string }>(QUERIES.stopRequests),
    instanceRuns: db.prepare<[string], { run_id: string }>(QUERIES.instanceRuns),
    heldRun: db.prepare<[string, string], { held: number }>(QUERIES.heldRun),
    liveRuns: db.prepare<[], LiveRunRow>(QUERIES.liveRuns),
    relicGet: db.prepare<[string, string], RelicRow>(QUERIES.relicGet),
    relicSet: db.prepare<[string, string, string, number | null]>(QUERIES.relicSet),
    relicDelete: db.prepare<[string, string], Pick<RelicRow, "expires_at">>(QUERIES.relicDelete),
    relicSweep: db.prepare<[number]>(QUERIES.relicSweep),
  };
}

export type SqliteStatements = ReturnType<typeof prepareStatements>;
