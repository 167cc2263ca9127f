import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { type Dialect, PERSISTED, type ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import type { TranscriptRecord } from "../protocol/records";
import { resolveModel } from "../providers";
import { replaySourceFor } from "../replay/replay-provider";
import { turnCounter } from "../runtime/agent-loop";
import type { CallSettings } from "../runtime/model-turn";
import { runInEnvironment } from "../runtime/run-environment";
import { systemPrompt } from "../runtime/system-prompt";
import type { Store, Transcript } from "../store";
import { builtinTools, createRegistry, ensureWorkspace, type Registry } from "../tools";
import { owesTurn } from "../transcripts/fork";
import { TaskStepStream } from "../transcripts/task-step-stream";
import { claimTranscript, registerRun } from "./active-runs";
import type { ServerConfig } from "./config";
import { providerRun } from "./provider-run";
import { createRecordWriter } from "./record-writer";
import { sseRecord } from "./sse";

export interface RunRequest {
  /** Absent: resume `transcriptId`, which must end where the model owes a turn (a fork). */
  message?: string;
  dialect: Dialect;
  model?: { provider: string; id?: string; settings?: CallSettings & { paceMs?: number } };
  transcriptId?: string;
  system?: string;
  tools?: string[];
  /** `tasksteps`: the SSE records are TaskStep chunks (spec §7); the transcript still stores §9 records. */
  format?: "records" | "tasksteps";
}

/** A request the server refuses before streaming: `status` and a message naming what is wrong. */
export class RunRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RunServiceDependencies {
  store: Store;
  config: ServerConfig;
  now?: () => number;
}

/**
 * Starts a run (spec §9) and returns its SSE body: `run` first, then every event, chunk and
 * request record as it happens. Each record is also appended to the transcript. The run is
 * interrupted when `signal` aborts (the client went away) or by a stop request.
 */
export async function startRun(
  request: RunRequest,
  dependencies: RunServiceDependencies,
  signal: AbortSignal,
): Promise<{ transcriptId: string; runId: string; body: ReadableStream<Uint8Array> }> {
  const { store, config } = dependencies;
  const now = dependencies.now ?? Date.now;
  const modelRequest = request.model ?? { provider: "demo" };
  const replay = await replaySourceFor(modelRequest, store);
  if (!replay.ok) throw new RunRequestError(replay.status, replay.message);
  const resolved = resolveModel(modelRequest, request.dialect, {
    ...(config.demoPaceMs === undefined ? {} : { demoPaceMs: config.demoPaceMs }),
    env: config.providerEnv,
    ...(replay.source === undefined ? {} : { replay: replay.source }),
  });
  if (!resolved.ok) throw new RunRequestError(400, `${resolved.field}: ${resolved.message}`);
  const chosen = resolved;
  const registry = selectTools(
    createRegistry(builtinTools({ shell: config.shell })),
    request.tools,
  );

  const previous =
    request.transcriptId === undefined ? null : await store.getTranscript(request.transcriptId);
  if (request.transcriptId !== undefined && previous === null) {
    throw new RunRequestError(404, `transcriptId: no transcript "${request.transcriptId}".`);
  }
  if (previous !== null && previous.meta.dialect !== request.dialect) {
    throw new RunRequestError(
      400,
      `dialect: this conversation is in "${previous.meta.dialect}"; fork it (POST /api/transcripts/:id/fork with a dialect) to go on in "${request.dialect}".`,
    );
  }
  if (request.message === undefined && (previous === null || !owesTurn(previous.records))) {
    throw new RunRequestError(
      400,
      "message: required, unless transcriptId names a conversation that ends with a user message or tool results.",
    );
  }
  // Claimed synchronously after the last check, so two requests cannot both pass it.
  const claim = previous === null ? () => {} : claimTranscript(previous.meta.id);
  if (claim === null) {
    throw new RunRequestError(
      409,
      `transcriptId: "${previous?.meta.id}" already has a run in progress; wait for it or stop it.`,
    );
  }
  let release = claim;
  try {
    return await begin();
  } catch (error) {
    release();
    throw error;
  }

  async function begin(): Promise<{
    transcriptId: string;
    runId: string;
    body: ReadableStream<Uint8Array>;
  }> {
    const system = request.system ?? systemPrompt(request.dialect, registry.describe());
    const meta =
      previous?.meta ??
      (await store.createTranscript({
        title: titleFrom(request.message ?? ""),
        dialect: request.dialect,
        model: { provider: chosen.provider, id: chosen.id },
        system,
        tools: registry.names(),
      }));
    // A new conversation is claimed as soon as it exists: its id reaches the client first thing.
    if (previous === null) release = claimTranscript(meta.id) ?? release;
    const workspace = await ensureWorkspace(config.dataDir, meta.id);
    const runId = randomUUID();
    const controller = new AbortController();
    // Every running call listens for the interrupt; a wide batch is not a leak.
    setMaxListeners(0, controller.signal);
    const onClientGone = () => controller.abort("disconnect");
    signal.addEventListener("abort", onClientGone, { once: true });
    // The client may have gone while the transcript and workspace were being prepared.
    if (signal.aborted) controller.abort("disconnect");
    const unregister = registerRun(runId, controller);
    const writer = createRecordWriter(store, meta.id, runId, (error) =>
      console.error("wirescope: could not store a record:", error),
    );
    const { settings = {} } = modelRequest;
    const { paceMs: _pace, ...userSettings } = settings;
    const provider = providerRun(chosen, userSettings, config);
    let counter = 0;
    const newId = () => `${runId.slice(0, 8)}-${++counter}`;
    const steps = request.format === "tasksteps" ? new TaskStepStream() : undefined;
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        let open = true;
        const write = (record: unknown) => {
          if (!open) return;
          try {
            stream.enqueue(sseRecord(record));
          } catch {
            open = false;
          }
        };
        // TaskStep clients get chunks instead of records; the ids are in the response headers.
        const send = (record: TranscriptRecord) => {
          if (steps === undefined) write(record);
          else for (const chunk of steps.push(record)) write(chunk);
        };
        if (steps === undefined) write({ kind: "run", transcriptId: meta.id, runId });
        const history = previous === null ? [] : conversationOf(previous);
        void runInEnvironment(
          {
            dialect: request.dialect,
            model: chosen.model,
            modelRef: { provider: chosen.provider, id: chosen.id },
            system,
            settings: provider.settings,
            streamTurn: provider.streamTurn,
            registry,
            workspace,
            relics: store,
            signal: controller.signal,
            now,
            newId,
            turns: turnCounter(previous === null ? 0 : nextTurn(previous)),
            maxTurns: config.maxTurns,
            emit(record) {
              const safe = provider.redact(record);
              writer.write(safe);
              send(safe);
            },
          },
          request.message,
          history,
        )
          .catch((error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            const event: ProtocolEvent = {
              type: "error",
              id: newId(),
              timestamp: now(),
              code: "internal",
              message: provider.redactText(`The run failed: ${message}`),
            };
            writer.write({ kind: "event", event });
            send({ kind: "event", event });
          })
          // The catch above settles every failure of the run, so this always runs; its own
          // failure is reported, never left as an unhandled rejection.
          .then(async () => {
            signal.removeEventListener("abort", onClientGone);
            unregister();
            release();
            await writer.flush();
            for (const chunk of steps?.end() ?? []) write(chunk);
            if (open) stream.close();
            open = false;
          })
          .catch((error: unknown) => console.error("wirescope: could not finish a run:", error));
      },
      cancel() {
        controller.abort("disconnect");
      },
    });
    return { transcriptId: meta.id, runId, body };
  }
}

function selectTools(registry: Registry, names: readonly string[] | undefined): Registry {
  if (names === undefined) return registry;
  const unknown = names.filter((name) => registry.get(name) === undefined);
  if (unknown.length > 0) {
    throw new RunRequestError(
      400,
      `tools: unknown tool ${unknown.map((name) => `"${name}"`).join(", ")}; available: ${registry.names().join(", ")}.`,
    );
  }
  return createRegistry(
    names.map((name) => registry.get(name)).filter((tool) => tool !== undefined),
  );
}

/** The persisted conversation of a stored transcript, pieces merged. */
function conversationOf(transcript: Transcript): ProtocolEvent[] {
  // A sub-agent's events (they carry `parent`) belong to its own run, not to this context.
  const events = transcript.records.flatMap((record) =>
    record.kind === "event" && record.event.parent === undefined && PERSISTED[record.event.type]
      ? [record.event]
      : [],
  );
  return mergePieces(events);
}

function nextTurn(transcript: Transcript): number {
  let last = -1;
  for (const record of transcript.records)
    if (record.kind !== "event") last = Math.max(last, record.turn);
  return last + 1;
}

function titleFrom(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || "Untitled";
}
