const key = Symbol.for("wirescope.busy-transcripts");
type Holder = { [key]?: Set<string> };

/**
 * Marks a transcript as having a run in progress; false when it already has one (two runs
 * appending to one conversation would interleave their records). Returns the release. The
 * set lives on `globalThis`: Next bundles each route on its own.
 */
export function claimTranscript(transcriptId: string): (() => void) | null {
  const holder = globalThis as Holder;
  holder[key] ??= new Set();
  const busy = holder[key];
  if (busy.has(transcriptId)) return null;
  busy.add(transcriptId);
  return () => busy.delete(transcriptId);
}
