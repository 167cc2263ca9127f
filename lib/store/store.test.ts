import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { createMemoryStore } from "./memory-store";
import { postgresTestCluster } from "./postgres-testing";
import { openSqliteStore } from "./sqlite-store";
import { describeStoreConformance } from "./store-conformance";
import { describeInstanceConformance } from "./store-conformance-instances";
import { describeRecordConformance } from "./store-conformance-records";
import { describeRelicConformance } from "./store-conformance-relics";
import { describeRunConformance } from "./store-conformance-runs";
import { describeSearchConformance } from "./store-conformance-search";
import { describeTranscriptRunConformance } from "./store-conformance-transcript-runs";

describeStoreConformance("memory", (options) => createMemoryStore(options));

// A real file per test (not ":memory:") so WAL and the on-disk paths are what is exercised.
const directory = mkdtempSync(join(tmpdir(), "wirescope-store-"));
let files = 0;
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeStoreConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeRecordConformance("memory", (options) => createMemoryStore(options));
describeRecordConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeRunConformance("memory", (options) => createMemoryStore(options));
describeRunConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeSearchConformance("memory", (options) => createMemoryStore(options));
describeSearchConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeRelicConformance("memory", (options) => createMemoryStore(options));
describeRelicConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeTranscriptRunConformance("memory", (options) => createMemoryStore(options));
describeTranscriptRunConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

describeInstanceConformance("memory", (options) => createMemoryStore(options));
describeInstanceConformance("sqlite", (options) =>
  openSqliteStore({ ...options, path: join(directory, `${++files}.db`) }),
);

// A real PostgreSQL server: a throwaway cluster for this file, a new database per test.
const postgres = postgresTestCluster();
if (postgres.skip === undefined) {
  describeStoreConformance("postgres", (options) => postgres.open(options));
  describeRecordConformance("postgres", (options) => postgres.open(options));
  describeRunConformance("postgres", (options) => postgres.open(options));
  describeSearchConformance("postgres", (options) => postgres.open(options));
  describeRelicConformance("postgres", (options) => postgres.open(options));
  describeInstanceConformance("postgres", (options) => postgres.open(options));
  describeTranscriptRunConformance("postgres", (options) => postgres.open(options));
} else {
  describe("Store conformance: postgres", () => {
    it.skip(postgres.skip ?? "", () => {});
  });
}
