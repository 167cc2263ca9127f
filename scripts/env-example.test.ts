import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `.env.example` is the file a user copies to `.env.local`: it lists every variable of the
 * README's configuration table, and nothing the table does not document.
 */
const root = join(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** The variables of the README's configuration table (its rows' first cells). */
function documented(): string[] {
  const readme = read("README.md");
  const table = readme.slice(readme.indexOf("| `OPENAI_API_KEY`"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n");
  return rows.flatMap((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1] ?? []);
}

/** The variables `.env.example` sets (lines `NAME=`, not comments). */
const listed = () =>
  read(".env.example")
    .split("\n")
    .flatMap((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1] ?? []);

describe(".env.example", () => {
  it("lists every variable of the README's configuration table, and only those", () => {
    const table = documented();
    expect(table.length).toBeGreaterThan(30);
    expect([...listed()].sort()).toEqual([...table].sort());
  });
});
