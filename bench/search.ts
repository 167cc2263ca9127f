/**
 * `npx tsx bench/search.ts [transcripts]`: transcript search on SQLite — transcripts whose user
 * message and streamed response (~4 KB of text, as 40 commits of pieces) are searchable; the
 * time of a search that matches nothing (every block read) and of one matching the last
 * transcript only, and of a query of 100 characters (longer than a part's lead, so looked for in
 * whole blocks). Figures are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { openSqliteStore, type TranscriptRecord } from "../lib/store";
import { loadAverage } from "./table";

const transcripts = Number(process.argv[2] ?? 1000);
const COMMITS = 40;

function respond(text: string): TranscriptRecord {
  return {
    kind: "event",
    event: {
      type: "respond",
      id: "r1",
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: text.length },
      content: text,
    },
  };
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(os.tmpdir(), "wirescope-search-bench-"));
  try {
    const store = openSqliteStore({ path: join(directory, "bench.db") });
    for (let index = 0; index < transcripts; index++) {
      const { id } = await store.createTranscript({
        dialect: "xml",
        model: { provider: "demo", id: "demo" },
        title: `Conversation ${index}`,
      });
      await store.appendRecords(id, "run", [
        {
          kind: "event",
          event: {
            type: "user",
            id: "u1",
            timestamp: 0,
            content: `Question ${index}: ${"why ".repeat(25)}`,
          },
        },
      ]);
      for (let commit = 0; commit < COMMITS; commit++)
        await store.appendRecords(id, "run", [
          respond(`Piece ${commit} of answer ${index}, ${"words and more words ".repeat(4)}`),
          respond(index === transcripts - 1 && commit === COMMITS / 2 ? " needle " : " "),
        ]);
    }
    const time = async (query: string) => {
      const times: number[] = [];
      let found = 0;
      for (let round = 0; round < 7; round++) {
        const began = performance.now();
        found = (await store.listTranscripts({ query })).length;
        times.push(performance.now() - began);
      }
      times.sort((a, b) => a - b);
      return `${times[3]?.toFixed(1)} ms (median of 7; ${found} found)`;
    };
    console.log(`${transcripts} transcripts, ~4 KB searchable text each:`);
    console.log(`  a search matching nothing: ${await time("no such words")}`);
    console.log(`  a search matching one: ${await time("needle")}`);
    // Longer than a part's lead: looked for in whole blocks, their parts joined.
    console.log(
      `  a 100-character search matching nothing: ${await time("no such words ".repeat(8).slice(0, 100))}`,
    );
    console.log(`load average ${loadAverage()}`);
    await store.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

void main();
