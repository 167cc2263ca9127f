/**
 * Seeding a conversation's workspace (lib/tools/seed-template.ts): the process CPU
 * (`process.cpuUsage`, user + system, which counts the file-system thread pool too) per
 * workspace for 300 made at once, writing each sample file (mkdir, open, write, close: how
 * seeding worked before) against copying them from the seeded template. Figures are printed,
 * never asserted. `npx tsx bench/seed-workspace.ts [workspaces]`
 */
import { mkdtempSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SAMPLE_FILES } from "../lib/tools/samples";
import { seedWorkspace } from "../lib/tools/seed-template";

const count = Number(process.argv[2] ?? 300);

async function writeEach(_parent: string, root: string): Promise<void> {
  for (const [file, content] of Object.entries(SAMPLE_FILES)) {
    const absolute = path.join(root, file);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content, "utf8");
  }
}

const ways = { "write each file": writeEach, "copy the template": seedWorkspace };

async function main() {
  const base = mkdtempSync(path.join(os.tmpdir(), "wirescope-seed-bench-"));
  try {
    const parent = path.join(base, "workspaces");
    await mkdir(parent);
    await seedWorkspace(parent, mkdtempSync(path.join(parent, "warm-"))); // the template
    for (let round = 0; round < 3; round++) {
      for (const [name, seed] of Object.entries(ways)) {
        const roots = Array.from({ length: count }, (_, i) =>
          path.join(parent, `${round}-${name.length}-${i}`),
        );
        const before = process.cpuUsage();
        await Promise.all(
          roots.map(async (root) => {
            await mkdir(root);
            await seed(parent, root);
          }),
        );
        const used = process.cpuUsage(before);
        const perWorkspace = (used.user + used.system) / count;
        console.log(
          `${name.padEnd(18)} ${perWorkspace.toFixed(0).padStart(5)} µs CPU a workspace (user ${(used.user / count).toFixed(0)}, system ${(used.system / count).toFixed(0)})`,
        );
      }
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  console.log(
    `node ${process.version}, load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
