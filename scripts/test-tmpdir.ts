/**
 * Vitest's global setup: every test's temporary files (data directories, workspaces, database
 * files, throwaway PostgreSQL clusters) go under one directory made for the run and removed
 * when it ends, so `npm test` leaves nothing behind in the system's temporary directory
 * (before, a run left about a thousand directories there: most tests made theirs with
 * `mkdtemp` and never removed them). Workers start after this and inherit `TMPDIR`, which
 * `os.tmpdir()` reads.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-tests-"));
  // Open to other users as the system's own is: a throwaway PostgreSQL cluster runs as
  // `postgres` (`lib/store/postgres-cluster.ts`) and must reach its directory inside.
  chmodSync(directory, 0o755);
  process.env.TMPDIR = directory;
  return () => rmSync(directory, { recursive: true, force: true });
}
