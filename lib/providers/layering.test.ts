import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Layers are one-way: `lib/providers` sits below `lib/replay` (which registers its provider
 * through `resolveModel`'s `providers`), `lib/server` and the UI. An import the other way back
 * would make the provider registry depend on what it serves.
 */
const HERE = path.dirname(new URL(import.meta.url).pathname);
const FORBIDDEN = ["replay", "server", "runtime", "store", "transcripts", "client"];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier of `import … from "x"`, `export … from "x"` and `import("x")`. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
    if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** Whether a specifier seen from `file` lands in `lib/<area>` for a forbidden area. */
function reachesForbidden(file: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) {
    const libRoot = path.resolve(HERE, "..");
    target = `lib/${path.relative(libRoot, path.resolve(path.dirname(file), specifier))}`;
  } else return null;
  const area = /^lib\/([^/]+)/.exec(target)?.[1];
  return area !== undefined && FORBIDDEN.includes(area) ? area : null;
}

describe("lib/providers layering", () => {
  it("finds the import forms it scans for", () => {
    const source = [
      'import { a } from "../replay/replay-provider";',
      'import type { B } from "@/lib/replay";',
      'export { c } from "../store/store";',
      'const lazy = import("../server/runs");',
      'import "../runtime/side-effect";',
    ].join("\n");
    const file = path.join(HERE, "registry.ts");
    const hits = importsOf(source).map((specifier) => reachesForbidden(file, specifier));
    expect(hits).toEqual(["replay", "replay", "store", "server", "runtime"]);
  });

  it("imports nothing from lib/replay, lib/server or other areas above it", () => {
    const offenders: string[] = [];
    const self = new URL(import.meta.url).pathname;
    for (const file of sourceFiles(HERE).filter((candidate) => candidate !== self)) {
      for (const specifier of importsOf(readFileSync(file, "utf8"))) {
        const area = reachesForbidden(file, specifier);
        if (area !== null) offenders.push(`${path.relative(HERE, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
