/**
 * A throwaway PostgreSQL server for tests and benchmarks (never imported by the app): `initdb`
 * into a temp directory, `pg_ctl start` on a free port with its socket in that directory, one
 * fresh database per suite (`createDatabase`), and everything stopped and deleted by `stop()`.
 *
 * Debian keeps the binaries in `/usr/lib/postgresql/<version>/bin`, off PATH; `.ci/run`
 * installs the `postgresql` package when `initdb` is missing. PostgreSQL refuses to run as
 * root, so as root the cluster runs as the `postgres` user (or `nobody`) through `runuser`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

export interface PostgresCluster {
  /** `postgres://wirescope@127.0.0.1:<port>/<database>` (trust auth: no password). */
  url(database: string): string;
  /** A new, empty database; returns its connection URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and deletes its directory. */
  stop(): void;
}

export interface ClusterOptions {
  /**
   * `false` (tests): fsync and synchronous commit off, for speed. `true` (benchmarks): the
   * server's defaults, durable commits, as a team's server would run.
   */
  durable?: boolean;
}

/** The directory holding `initdb` and `pg_ctl`, or `undefined` when PostgreSQL is not installed. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // `WIRESCOPE_POSTGRES_BIN`: that directory only (empty: none, to skip the PostgreSQL tests).
  const chosen = env.WIRESCOPE_POSTGRES_BIN;
  const candidates =
    chosen === undefined ? (env.PATH ?? "").split(delimiter).filter(Boolean) : [chosen];
  const debian = "/usr/lib/postgresql";
  if (chosen === undefined && existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, "bin")));
  }
  const found = candidates.find(
    (directory) =>
      directory !== "" &&
      existsSync(join(directory, "initdb")) &&
      existsSync(join(directory, "pg_ctl")),
  );
  // A link on PATH (/usr/local/bin/initdb): psql and postgres sit beside the real file.
  return found === undefined ? undefined : dirname(realpathSync(join(found, "initdb")));
}

/** Why the PostgreSQL tests cannot run here, or `undefined` when they can. */
export function postgresSkipReason(): string | undefined {
  return findPostgresBin() === undefined
    ? "PostgreSQL was not found (no initdb/pg_ctl on PATH, in /usr/lib/postgresql/*/bin or in " +
        "WIRESCOPE_POSTGRES_BIN): " +
        "the PostgreSQL store tests are skipped. Install Debian's `postgresql` package (.ci/run does)."
    : undefined;
}

export async function startCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(postgresSkipReason());
  const directory = mkdtempSync(join(tmpdir(), "wirescope-pg-"));
  const data = join(directory, "data");
  const owner = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  if (owner !== undefined) chownSync(directory, owner.uid, owner.gid);
  const run = (command: string, args: string[]) => {
    const [file, argv] =
      owner === undefined
        ? [join(bin, command), args]
        : ["runuser", ["-u", owner.name, "--", join(bin, command), ...args]];
    execFileSync(file, argv, { stdio: "pipe", cwd: directory });
  };
  const stop = () => {
    if (!existsSync(directory)) return;
    if (existsSync(join(data, "postmaster.pid")))
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already gone: the directory goes all the same.
      }
    rmSync(directory, { recursive: true, force: true });
  };
  process.once("exit", stop);
  try {
    run("initdb", ["-D", data, "-U", "wirescope", "-A", "trust", "-E", "UTF8", "--locale=C", "-N"]);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${directory}`,
      "-c listen_addresses=127.0.0.1",
      "-c max_connections=200",
      // Tests: no flushes, little memory, no /dev/shm (small in containers).
      ...(options.durable
        ? []
        : [
            "-c fsync=off",
            "-c synchronous_commit=off",
            "-c full_page_writes=off",
            "-c shared_buffers=16MB",
            "-c dynamic_shared_memory_type=mmap",
          ]),
    ];
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      join(directory, "log"),
      "-w",
      "-t",
      "60",
      "-o",
      settings.join(" "),
      "start",
    ]);
    const url = (database: string) => `postgres://wirescope@127.0.0.1:${port}/${database}`;
    let databases = 0;
    return {
      url,
      async createDatabase() {
        const name = `wirescope_${process.pid}_${++databases}`;
        execFileSync(join(bin, "psql"), [url("postgres"), "-qc", `CREATE DATABASE ${name}`], {
          stdio: "pipe",
        });
        return url(name);
      },
      stop,
    };
  } catch (error) {
    stop();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`Could not start a throwaway PostgreSQL cluster: ${stderr || error}`, {
      cause: error,
    });
  }
}

function unprivilegedUser(): { name: string; uid: number; gid: number } {
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (uid.status === 0 && gid.status === 0)
      return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error("Running as root, and no `postgres` or `nobody` user to run PostgreSQL as.");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
