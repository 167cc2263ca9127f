/**
 * The transcript routes (`app/api/transcripts/**`) seen from the browser. Every call returns
 * a result: the server's `{ error }` message when it refused, never a throw.
 */
import type { Dialect, DialectDefinition, ResultStatus } from "@/lib/protocol";
import type { TranscriptMeta, TranscriptSource, TranscriptSummary } from "@/lib/store/store";
import type { OpenTranscript } from "@/state/playground-store";

/** A failure's `status` is the server's HTTP status; it is absent when none answered. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: string; status?: number };

export interface TranscriptPage {
  transcripts: TranscriptSummary[];
  nextOffset: number | null;
}

/** `POST /api/transcripts/:id/fork` (see lib/transcripts/CONTEXT.md). */
export interface ForkBody {
  at: number;
  editUserMessage?: string;
  editResult?: { callId: string; content: unknown; status?: ResultStatus };
  dialect?: Dialect;
  model?: { provider: string; id: string };
}

export interface ForkReply {
  transcript: TranscriptMeta;
  /** The `POST /api/runs` body that continues the fork. */
  continueWith: {
    transcriptId: string;
    dialect: Dialect | DialectDefinition;
    model: { provider: string; id: string };
    message?: string;
  };
  resume: boolean;
}

export type ExportFormat = "jsonl" | "markdown" | "tasksteps" | "otlp";

const path = (id: string) => `/api/transcripts/${encodeURIComponent(id)}`;

async function call<T>(url: string, init?: RequestInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The connection to the server failed: ${message}` };
  }
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok || body === null)
    return {
      ok: false,
      error: body?.error ?? `The server answered ${response.status}.`,
      status: response.status,
    };
  return { ok: true, value: body };
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

export function listTranscripts(
  query: string,
  offset = 0,
  source?: TranscriptSource,
): Promise<ApiResult<TranscriptPage>> {
  const params = new URLSearchParams({ offset: String(offset) });
  if (query.trim() !== "") params.set("query", query.trim());
  if (source !== undefined) params.set("source", source);
  return call(`/api/transcripts?${params}`);
}

/** A transcript's meta, with its last record only: a title costs no more at 50,000 events. */
export const getTranscriptMeta = (id: string) =>
  call<Pick<OpenTranscript, "meta">>(`${path(id)}?limit=1&from=end`);

export const renameTranscript = (id: string, title: string) =>
  call<{ meta: TranscriptMeta }>(path(id), json("PATCH", { title }));

export const deleteTranscript = (id: string) =>
  call<{ deleted: string }>(path(id), { method: "DELETE" });

export const restoreTranscript = (id: string) =>
  call<{ restored: string }>(`${path(id)}/restore`, { method: "POST" });

/** `POST /api/transcripts/:id/otlp`: sends the transcript to the server's OTLP endpoint. */
export const sendOtlp = (id: string) =>
  call<{ sent: { traces: number; spans: number } }>(`${path(id)}/otlp`, { method: "POST" });

export const forkTranscript = (id: string, body: ForkBody) =>
  call<ForkReply>(`${path(id)}/fork`, json("POST", body));

/** How the server chose a raw text's dialect (`?format=text` imports only). */
export interface RawDialectReply {
  dialect: string;
  by: "query" | "detected" | "fallback";
  reason: string;
}

/**
 * The file as the request body; the server validates every line. A raw text file (a model's
 * wire text from a log) goes with `?format=text` and its name as the title; the reply then
 * says which dialect parses it and why.
 */
export const importTranscriptFile = (file: Blob, raw?: { title: string }) =>
  call<{ transcript: TranscriptMeta; records: number; dialect?: RawDialectReply }>(
    raw === undefined
      ? "/api/transcripts/import"
      : `/api/transcripts/import?${new URLSearchParams({ format: "text", title: raw.title })}`,
    {
      method: "POST",
      headers: { "content-type": raw === undefined ? "application/x-ndjson" : "text/plain" },
      body: file,
    },
  );

export interface MarkdownSwitches {
  reasoning: boolean;
  tools: boolean;
  requests: boolean;
}

/** Where the browser downloads an export from (the route answers as an attachment). */
export function exportUrl(
  id: string,
  format: ExportFormat,
  switches?: MarkdownSwitches,
  content?: boolean,
): string {
  const params = new URLSearchParams({ format });
  if (format === "otlp" && content === true) params.set("content", "1");
  if (format === "markdown" && switches !== undefined)
    for (const [name, on] of Object.entries(switches)) params.set(name, on ? "1" : "0");
  return `${path(id)}/export?${params}`;
}
