// `npm run lock`: regenerate package-lock.json from package.json (after a merge, or after adding
// a package) and make it complete for every platform, then prove that `npm ci` accepts it.
//
// Why npm alone leaves platform packages out: npm records an optional dependency only when it
// can fetch its manifest. When the registry it talks to lacks that exact version (a mirror that
// carries only some platforms' builds of a release, as this project's build machine's does),
// npm drops the package from the lock without a word, and `npm ci` then refuses the lock
// ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). This script adds each missing entry
// from the registry's manifest of that version. When the registry lacks that version, it takes
// the platform fields (os, cpu, libc, engines) from the newest manifest it has, or from the
// package's name, and leaves the integrity out: npm then fetches that package by name and
// version on the platform that needs it, and skips it everywhere else.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import {
  candidatePaths,
  exactVersion,
  type Lock,
  type LockEntry,
  missingOptional,
  platformFromName,
} from "./lock-entries";

const lockFile = new URL("../package-lock.json", import.meta.url);
const cwd = new URL("..", import.meta.url);

function npm(args: string[], quiet = true): string {
  return execFileSync("npm", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
  });
}

interface Manifest {
  version?: string;
  dist?: { integrity?: string };
  os?: string[];
  cpu?: string[];
  libc?: string[];
  license?: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  bundledDependencies?: string[];
}

function manifest(spec: string): Manifest | null {
  try {
    const parsed = JSON.parse(npm(["view", spec, "--json"])) as Manifest | Manifest[];
    return (Array.isArray(parsed) ? parsed.at(-1) : parsed) ?? null;
  } catch {
    return null; // not on this registry
  }
}

function entryFor(name: string, version: string, parent: LockEntry) {
  const exact = manifest(`${name}@${version}`);
  const source: Manifest | null = exact ?? manifest(name) ?? platformFromName(name);
  if (source === null) throw new Error(`The registry knows no package ${name}.`);
  const bundled = source.bundleDependencies ?? source.bundledDependencies;
  const entry: LockEntry = {
    version,
    ...(exact?.dist?.integrity ? { integrity: exact.dist.integrity } : {}),
    ...(source.cpu ? { cpu: source.cpu } : {}),
    ...(parent.dev ? { dev: true } : {}),
    ...(source.libc ? { libc: source.libc } : {}),
    ...(source.license ? { license: source.license } : {}),
    optional: true,
    ...(source.os ? { os: source.os } : {}),
    ...(bundled?.length ? { bundleDependencies: bundled } : {}),
    ...(source.dependencies ? { dependencies: source.dependencies } : {}),
    ...(source.engines ? { engines: source.engines } : {}),
  };
  return { entry, exact: exact !== null };
}

const readLock = () => JSON.parse(readFileSync(lockFile, "utf8")) as Lock;

function complete(): { added: number; guessed: number } {
  const lock = readLock();
  const missing = missingOptional(lock);
  let guessed = 0;
  for (const { from, name, range } of missing) {
    const version = exactVersion(range);
    if (version === null)
      throw new Error(`${name}@${range} (for ${from}) is not an exact version.`);
    const parent = lock.packages[from] ?? {};
    // Hoisted to the top, unless another version of it lives there already.
    const paths = candidatePaths(from, name);
    const top = paths.at(-1) ?? `node_modules/${name}`;
    const path = lock.packages[top] === undefined ? top : (paths[0] ?? top);
    const { entry, exact } = entryFor(name, version, parent);
    if (!exact) guessed++;
    lock.packages[path] = entry;
    console.log(`  + ${path}@${version}${exact ? "" : " (not on this registry: no integrity)"}`);
  }
  const packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  writeFileSync(lockFile, `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
  return { added: missing.length, guessed };
}

const install = ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"];
console.log("npm install --package-lock-only …");
npm(install, false);
const { added, guessed } = complete();
// Let npm normalize what was added (flags, order); it keeps entries that satisfy their edges.
npm(install, false);
const left = missingOptional(readLock());
if (left.length > 0) {
  console.error(`npm dropped ${left.length} entries again: ${left.map((m) => m.name).join(", ")}`);
  process.exit(1);
}
console.log("npm ci --dry-run …");
npm(["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], false);
console.log(
  `package-lock.json is complete: ${added} platform package(s) added` +
    (guessed > 0 ? `, ${guessed} without integrity (their version is not on this registry).` : "."),
);
