import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_MATCHES, MAX_SEARCH_FILE_BYTES, searchTool } from "./search";
import { createTempWorkspace, runTool, type TempWorkspace } from "./testing";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await createTempWorkspace();
  await temp.put({
    "README.md": "# Workspace\nSee the TODO list.\n",
    "notes/todo.md": "# To do\n- [ ] fix average\n- [x] move data\n",
    "src/app.py": "def average(amounts):\n    # todo: skip empty lists\n    return 0\n",
  });
});
afterEach(() => temp.cleanup());

const search = (args: Record<string, unknown>) => runTool(searchTool, args, temp.context);

describe("search", () => {
  it("finds a plain snippet case-insensitively, as file:line: text", async () => {
    expect(await search({ query: "todo" })).toEqual({
      content: {
        matches: ["README.md:2: See the TODO list.", "src/app.py:2: # todo: skip empty lists"],
        searchedFiles: 3,
        skippedFiles: 0,
        truncated: false,
      },
      outcome: 'Found 2 matches for "todo" in 2 files',
    });
  });

  it("treats the query as text, not a pattern", async () => {
    const output = await search({ query: "- [ ]" });
    expect((output.content as { matches: string[] }).matches).toEqual([
      "notes/todo.md:2: - [ ] fix average",
    ]);
  });

  it("searches only below `path`, which may be one file", async () => {
    const inDirectory = await search({ query: "average", path: "notes" });
    expect((inDirectory.content as { matches: string[] }).matches).toEqual([
      "notes/todo.md:2: - [ ] fix average",
    ]);
    const inFile = await search({ query: "average", path: "src/app.py" });
    expect((inFile.content as { matches: string[] }).matches).toEqual([
      "src/app.py:1: def average(amounts):",
    ]);
  });

  it("skips binary files and files over the size limit", async () => {
    await temp.put({
      "logo.bin": Buffer.concat([Buffer.from("average"), Buffer.from([0, 1, 2])]),
      "big.log": `average\n${"x".repeat(MAX_SEARCH_FILE_BYTES)}`,
    });
    const output = await search({ query: "average" });
    expect(output.content).toMatchObject({ searchedFiles: 3, skippedFiles: 2 });
    expect((output.content as { matches: string[] }).matches).toHaveLength(2);
  });

  it("stops at the match cap and says so", async () => {
    await temp.put({ "many.txt": "needle\n".repeat(MAX_MATCHES + 20) });
    const output = await search({ query: "needle", path: "many.txt" });
    const content = output.content as { matches: string[]; truncated: boolean };
    expect(content.matches).toHaveLength(MAX_MATCHES);
    expect(content.matches.at(-1)).toBe(`many.txt:${MAX_MATCHES}: needle`);
    expect(content.truncated).toBe(true);
    expect(output.outcome).toBe('Found 100 matches for "needle" in 1 file (stopped at 100)');
  });

  it("reports no matches plainly", async () => {
    expect((await search({ query: "zebra" })).outcome).toBe('No matches for "zebra" in 3 files');
  });

  it("clips very long matching lines", async () => {
    await temp.put({ "min.js": `var needle=1;${"x".repeat(500)}` });
    const [match] = (
      (await search({ query: "needle", path: "min.js" })).content as { matches: string[] }
    ).matches;
    expect(match).toBe(`min.js:1: var needle=1;${"x".repeat(187)}…`);
  });
});
