#!/usr/bin/env node
// `npm run build`: `next build`, then the stamp that lets `npm start` skip the next build while
// the sources stay the same. `--if-changed` builds only when they changed; `--quiet` shows
// Next's output only when the build fails.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildIsCurrent, sourceHash, writeStamp } from "./build-stamp.mjs";
import { telemetryEnv } from "./telemetry.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Builds when needed; resolves to whether it built. Rejects with Next's output on failure. */
export async function build({ ifChanged = false, quiet = false } = {}) {
  if (ifChanged && buildIsCurrent(root)) return false;
  // Hash before building: an edit made during the build makes the next start build again.
  const hash = sourceHash(root);
  const next = fileURLToPath(new URL("../node_modules/next/dist/bin/next", import.meta.url));
  const child = spawn(process.execPath, [next, "build"], {
    cwd: root,
    env: telemetryEnv(process.env),
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  let output = "";
  child.stdout?.on("data", (data) => {
    output += data;
  });
  child.stderr?.on("data", (data) => {
    output += data;
  });
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`next build failed (exit code ${code}).\n${output}`);
  writeStamp(root, hash);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  build({ ifChanged: args.includes("--if-changed"), quiet: args.includes("--quiet") }).then(
    (built) => {
      if (!built) console.log("The build in .next is up to date with the sources.");
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
