/**
 * Vitest's global setup: every test's temporary files (data directories, workspaces, database
 * files, throwaway PostgreSQL clusters) go under one directory made for the run and removed
 * when it ends, so `npm test` leaves nothing behind in the system's temporary directory
 * (before, a run left about a thousand directories there: most tests made theirs with
 * `mkdtemp` and never removed them). Workers start after this and inherit `TMPDIR`, which
 * `os.tmpdir()` reads.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  // Under a short path: Unix sockets made inside (PostgreSQL's, a test's) have ~104 bytes for
  // their whole path, and macOS's own temporary directory is long (/var/folders/…/T/).
  const base = tmpdir().length > 16 && existsSync("/tmp") ? "/tmp" : tmpdir();
  const directory = mkdtempSync(join(base, "ws-tests-"));
  // Open to other users as the system's own is: a throwaway PostgreSQL cluster runs as
  // `postgres` (`lib/store/postgres-cluster.ts`) and must reach its directory inside.
  chmodSync(directory, 0o755);
  process.env.TMPDIR = directory;
  return () => rmSync(directory, { recursive: true, force: true });
}
