import { dialectOf } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import type { Store, Transcript } from "../store";
import { builtinTools } from "../tools";
import type { ServerConfig } from "./config";
import { runRegistry } from "./run-registry";
import { type RunRequest, RunRequestError, startRun } from "./runs";

/** `POST /api/transcripts/:id/rerun`: run a transcript's user messages again on another model or dialect. */
export interface RerunRequest {
  model?: { provider: string; id?: string };
  dialect?: Dialect;
  /** `first`: only the first user message; `all`: every user message, in order. */
  mode: "first" | "all";
}

/** Where a rerun is, as `GET /api/transcripts/:id/rerun` answers it (for the new transcript). */
export interface RerunStatus {
  source: string;
  transcriptId: string;
  /** User messages to send, and how many of them have had their run finish. */
  total: number;
  done: number;
  state: "running" | "done" | "failed";
  error?: string;
}

const key = Symbol.for("wirescope.reruns");
type Holder = { [key]?: Map<string, RerunStatus> };
/** `mode: "all"` sends at most this many messages: one rerun must not queue runs without end. */
export const MAX_MESSAGES = 100;
/** Finished reruns are forgotten past this many (the transcripts stay, of course). */
const KEEP = 200;

function statuses(): Map<string, RerunStatus> {
  const holder = globalThis as Holder;
  holder[key] ??= new Map();
  return holder[key];
}

/** A rerun's progress; null when this server has not started one for that transcript. */
export function rerunStatus(transcriptId: string): RerunStatus | null {
  const status = statuses().get(transcriptId);
  return status === undefined ? null : { ...status };
}

/** The source's top-level user messages, in order. */
export function userMessages(source: Transcript): string[] {
  return source.records.flatMap((record) =>
    record.kind === "event" && record.event.type === "user" && record.event.parent === undefined
      ? [record.event.content]
      : [],
  );
}

/**
 * Starts a rerun: the first user message is sent as a new run right away (so a refused model
 * or dialect is a 4xx here), the others one after another in the background, each once the
 * one before has finished. Answers the new transcript's id and the first run's id.
 */
export async function startRerun(
  source: Transcript,
  request: RerunRequest,
  dependencies: { store: Store; config: ServerConfig },
): Promise<RerunStatus & { runId: string }> {
  const all = userMessages(source);
  if (all.length === 0)
    throw new RunRequestError(400, "id: this transcript has no user message to run again.");
  if (request.mode === "all" && all.length > MAX_MESSAGES)
    throw new RunRequestError(
      400,
      `mode: this transcript has ${all.length} user messages; "all" runs at most ${MAX_MESSAGES} again (fork it shorter, or use "first").`,
    );
  const messages = request.mode === "first" ? all.slice(0, 1) : all;
  // A new dialect gets its own default system prompt; the same one keeps the source's prompt.
  const sameDialect = request.dialect === undefined || request.dialect === source.meta.dialect;
  const base: Omit<RunRequest, "message"> = {
    dialect: sameDialect ? dialectOf(source.meta) : (request.dialect as Dialect),
    model: request.model ?? source.meta.model,
    // The source's tools this server still offers (the shell may have been turned off since),
    // each once (an import may name one twice).
    tools: [...new Set(source.meta.tools)].filter((name) =>
      builtinTools({ shell: dependencies.config.shell }).some((tool) => tool.name === name),
    ),
    ...(sameDialect ? { system: source.meta.system } : {}),
  };
  const first = await startRun({ ...base, message: messages[0] as string }, dependencies);
  const status: RerunStatus = {
    source: source.meta.id,
    transcriptId: first.transcriptId,
    total: messages.length,
    done: 0,
    state: "running",
  };
  remember(status);
  const title = `${source.meta.title} · again on ${describeModel(base.model)}`;
  await dependencies.store
    .renameTranscript(first.transcriptId, title.slice(0, 500))
    .catch(() => null);
  void (async () => {
    await drainUnlessStopped(first);
    status.done = 1;
    for (const message of messages.slice(1)) {
      const next = await startWhenFree(
        { ...base, message, transcriptId: first.transcriptId },
        dependencies,
      );
      await drainUnlessStopped(next);
      status.done++;
    }
    status.state = "done";
  })().catch((error: unknown) => {
    status.state = "failed";
    status.error =
      error instanceof RunRequestError ? error.message : "The rerun failed; see the server log.";
    if (!(error instanceof RunRequestError)) console.error("wirescope: a rerun failed:", error);
  });
  return { ...status, runId: first.runId };
}

function describeModel(model: RunRequest["model"]): string {
  if (model === undefined) return "demo";
  return model.id === undefined ? model.provider : `${model.provider}/${model.id}`;
}

function remember(status: RerunStatus): void {
  const map = statuses();
  map.set(status.transcriptId, status);
  for (const [id, old] of map) {
    if (map.size <= KEEP) break;
    if (old.state !== "running") map.delete(id);
  }
}

/**
 * Reads a run's stream to its end; throws (ending the rerun) when someone stopped that run:
 * the rest of the messages must not go on spending tokens after a stop.
 */
async function drainUnlessStopped(run: {
  runId: string;
  body: ReadableStream<Uint8Array>;
}): Promise<void> {
  // Taken before draining: a finished run leaves the registry.
  const live = runRegistry().get(run.runId);
  await drain(run.body);
  if (live?.stoppedBy === "user")
    throw new RunRequestError(409, `stopped: run "${run.runId}" was stopped, so the rerun ended.`);
}

/** Reads a run's stream to its end: the run has finished (or been stopped) then. */
async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  while (!(await reader.read()).done) {}
}

/**
 * The run after the one that just ended: its stream closes a moment before the conversation is
 * released (its last records are committed first), so a `409` is tried again, a bounded number
 * of times.
 */
async function startWhenFree(
  request: RunRequest,
  dependencies: { store: Store; config: ServerConfig },
): Promise<Awaited<ReturnType<typeof startRun>>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startRun(request, dependencies);
    } catch (error) {
      if (!(error instanceof RunRequestError) || error.status !== 409 || attempt >= 200)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
