import { createHash } from "node:crypto";

/**
 * Trace and span ids derived from what they describe, so exporting the same transcript again
 * gives the same ids (a backend then sees a re-export as the same trace, not a new one).
 * One trace per run: `traceIdOf(transcriptId, runId)`; a span's id hashes its plan key.
 */
export function traceIdOf(transcriptId: string, runId: string): string {
  return nonZero(digest(`trace\u0000${transcriptId}\u0000${runId}`).slice(0, 32));
}

export function spanIdOf(transcriptId: string, key: string): string {
  return nonZero(digest(`span\u0000${transcriptId}\u0000${key}`).slice(0, 16));
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** An all-zero id is invalid in OTLP; a hash gives one with odds of 2^-64, but never ship it. */
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
