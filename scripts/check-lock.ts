// `npm run check:lock` (part of `npm run check`): fails when package-lock.json lacks an entry
// for some platform's optional package, which makes `npm ci` refuse the lock on that platform.
// Offline and fast. The fix: `npm run lock`.
import { readFileSync } from "node:fs";
import { type Lock, missingOptional } from "./lock-entries";

const lock = JSON.parse(
  readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"),
) as Lock;
const missing = missingOptional(lock);
if (missing.length > 0) {
  console.error(`package-lock.json lacks ${missing.length} optional package(s) that npm ci needs:`);
  for (const { from, name, range, found } of missing)
    console.error(
      `  ${name}@${range} (for ${from || "the project"})${found ? `, has ${found}` : ""}`,
    );
  console.error("Run `npm run lock` to regenerate a complete lock file.");
  process.exit(1);
}
console.log("package-lock.json: every platform's optional packages have an entry.");
