// Which optional packages a package-lock.json lacks. npm lists a platform's native binary
// (biome's CLI, tailwind's oxide, lightningcss, next's swc, esbuild, …) as an optional
// dependency of its parent; a lock made on one machine must still have an entry for every
// platform's binary, or `npm ci` refuses the lock on the others ("Missing: … from lock file").
// Pure: no I/O here; scripts/check-lock.ts and scripts/lock.ts do the reading and writing.

export interface LockEntry {
  version?: string;
  link?: boolean;
  dev?: boolean;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: string[];
  bundledDependencies?: string[];
  [field: string]: unknown;
}

export interface Lock {
  packages: Record<string, LockEntry>;
  [field: string]: unknown;
}

export interface MissingEntry {
  /** Lock path of the package that asks for it ("" is the project). */
  from: string;
  name: string;
  range: string;
  /** The version of the nearest entry of that name when it is the wrong one. */
  found: string | null;
}

/** The lock paths where Node looks for `name` from the package at `from`, nearest first. */
export function candidatePaths(from: string, name: string): string[] {
  const paths: string[] = [];
  let base = from;
  for (;;) {
    paths.push(base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`);
    if (base === "") return paths;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

/** An exact version ("1.2.3", "2.0.0-beta.2") or null for a range. */
export function exactVersion(range: string): string | null {
  return /^=?v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)$/.exec(range.trim())?.[1] ?? null;
}

/**
 * Every optional dependency with no entry that satisfies it. Ranges that are not exact
 * versions are satisfied by any entry of that name (npm ci checks those itself).
 */
export function missingOptional(lock: Lock): MissingEntry[] {
  const missing: MissingEntry[] = [];
  for (const [from, entry] of Object.entries(lock.packages)) {
    if (entry.link) continue;
    const bundled = new Set(entry.bundleDependencies ?? entry.bundledDependencies ?? []);
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      if (bundled.has(name)) continue;
      const path = candidatePaths(from, name).find((candidate) => lock.packages[candidate]);
      const version = path === undefined ? undefined : lock.packages[path]?.version;
      const exact = exactVersion(range);
      if (version !== undefined && (exact === null || version === exact)) continue;
      missing.push({ from, name, range, found: version ?? null });
    }
  }
  return missing;
}

const OSES = [
  "aix",
  "android",
  "darwin",
  "freebsd",
  "linux",
  "netbsd",
  "openbsd",
  "sunos",
  "win32",
];
const CPUS = ["arm", "arm64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "wasm32", "x64"];

export interface Platform {
  os?: string[];
  cpu: string[];
  libc?: string[];
}

/**
 * A binary package's platform fields read from its name (`@biomejs/cli-linux-x64-musl`,
 * `@next/swc-win32-arm64-msvc`), for a package the registry does not have at all.
 */
export function platformFromName(name: string): Platform | null {
  const words = (name.split("/").at(-1) ?? name).split("-");
  const os = words.find((word) => OSES.includes(word));
  const cpu = words.find((word) => CPUS.includes(word));
  if (cpu === undefined) return null;
  const libc = words.includes("musl")
    ? "musl"
    : words.some((word) => word.startsWith("gnu"))
      ? "glibc"
      : null;
  return {
    ...(os === undefined || cpu === "wasm32" ? {} : { os: [os] }),
    cpu: [cpu],
    ...(libc !== null && os === "linux" ? { libc: [libc] } : {}),
  };
}
