// What the production build in .next was made from: a hash of every source file, the lock file
// and the config. `npm start` builds only when it differs from the stamp the last build left.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Folders and files the build reads (tests included: cheaper to hash than to filter). */
const SOURCES = ["app", "components", "hooks", "lib", "state", "public"];
const FILES = [
  "package.json",
  "package-lock.json",
  "next.config.js",
  "postcss.config.mjs",
  "tsconfig.json",
  // Next's request interception: part of the build, outside the source folders.
  "proxy.ts",
];

function listFiles(root, dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(root, path, out);
    else if (entry.isFile()) out.push(relative(root, path));
  }
  return out;
}

/** The hash of the sources under `root` as they are now. */
export function sourceHash(root) {
  const files = SOURCES.flatMap((dir) => listFiles(root, join(root, dir), []));
  for (const file of FILES) if (existsSync(join(root, file))) files.push(file);
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const stampPath = (root) => join(root, ".next", "wirescope-build-stamp");

/** Whether .next holds a complete build of exactly these sources. */
export function buildIsCurrent(root) {
  if (!existsSync(join(root, ".next", "BUILD_ID"))) return false;
  if (!existsSync(stampPath(root))) return false;
  return readFileSync(stampPath(root), "utf8").trim() === sourceHash(root);
}

export function writeStamp(root, hash) {
  writeFileSync(stampPath(root), `${hash}\n`);
}
