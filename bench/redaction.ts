/**
 * `npx tsx bench/redaction.ts [kb]`: the slowest of the redaction entry points on hostile text —
 * `kb` KB (default 120) of one short unit repeated, for each trigger word and a few others,
 * followed by nothing, a letter, a dot, a space or a digit. A pattern that rescans a run from
 * each word in it shows up here as seconds (before 2026-11-27: "sk-" 6.9 s, "bearer." 3.4 s at
 * 120 KB); linear ones take milliseconds. Figures are printed, never asserted.
 */
import {
  maskSecrets,
  redactSecretLooking,
  redactSecrets,
  SECRET_TRIGGERS,
} from "../lib/runtime/redact";
import { createStreamRedactor } from "../lib/runtime/redact-stream";
import { fixed, loadAverage, table } from "./table";

const size = Number(process.argv[2] ?? 120) * 1024;
const units = [
  ...SECRET_TRIGGERS,
  "x-sk-",
  "_sk-",
  "password=",
  "?key=",
  "a://b:",
  "eyJa.",
  "Authorization: Bearer ",
  // A name followed by a long run of spaces (each space was a new start for the lookbehind).
  `basic${" ".repeat(6000)}`,
  `password:${" ".repeat(6000)}`,
];
const entries = {
  redactSecrets: (text: string) => redactSecrets(text),
  maskSecrets: (text: string) => maskSecrets(text),
  redactSecretLooking,
  // A model's stream in 16-character chunks: a run without whitespace is let go of by forced
  // cuts, each looking for secrets across the cut.
  streamed: (text: string) => {
    const redactor = createStreamRedactor([]);
    let out = "";
    for (let at = 0; at < text.length; at += 16) out += redactor.push(text.slice(at, at + 16));
    return out + redactor.end();
  },
};

const rows: string[][] = [];
for (const [name, redact] of Object.entries(entries)) {
  let worst = { ms: 0, unit: "" };
  for (const unit of units) {
    for (const tail of ["", "a", ".", " ", "1"]) {
      const piece = unit + tail;
      const text = piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
      const began = performance.now();
      redact(text);
      const ms = performance.now() - began;
      if (ms > worst.ms) worst = { ms, unit: piece };
    }
  }
  rows.push([name, fixed(worst.ms, 1), JSON.stringify(worst.unit)]);
}
console.log(
  `\nRedaction of ${size / 1024} KB of one unit repeated: the slowest unit of ${units.length * 5}`,
);
console.log(table(["entry point", "slowest ms", "its unit"], rows));
console.log(`load average ${loadAverage()}`);
