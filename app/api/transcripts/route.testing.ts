/**
 * The transcript route tests' shared helpers (route.test.ts, fork.test.ts): runs on the demo
 * model through the real route, requests to the transcript routes, their answers read.
 */
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import type { StoredRecord, Transcript, TranscriptSummary } from "@/lib/store";
import { POST as startRun } from "../runs/route";
import { GET as getOne } from "./[id]/route";
import { GET as list } from "./route";

export const url = (path: string) => `http://localhost/api/transcripts${path}`;
export const params = (id: string) => ({ params: Promise.resolve({ id }) });
export const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

export async function run(body: Record<string, unknown>): Promise<RunStreamRecord[]> {
  const response = await startRun(
    new Request(
      "http://localhost/api/runs",
      json({ dialect: "xml", model: { provider: "demo", settings: { paceMs: 0 } }, ...body }),
    ),
  );
  if (response.status !== 200) throw new Error(`run refused: ${await response.text()}`);
  const records: RunStreamRecord[] = [];
  if (response.body === null) throw new Error("no body");
  for await (const record of readRunStream(response.body)) records.push(record);
  return records;
}

export async function newTranscript(message: string): Promise<string> {
  const [first] = await run({ message });
  if (first?.kind !== "run") throw new Error("no run record");
  return first.transcriptId;
}

export const get = async (id: string) => getOne(new Request(url(`/${id}`)), params(id));
export const transcriptOf = async (id: string) =>
  (await (await get(id)).json()) as Transcript & { importedFrom?: unknown };
export const listOf = async (query = "") =>
  (await (await list(new Request(url(query)))).json()) as {
    transcripts: TranscriptSummary[];
    nextOffset: number | null;
  };
export const stripped = (records: StoredRecord[]) => records.map(({ seq: _seq, ...rest }) => rest);
