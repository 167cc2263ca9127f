import { setMaxListeners } from "node:events";
import {
  baseDialect,
  type DialectDefinition,
  dialectLabel,
  dialectOf,
  sameDialect,
} from "../protocol/definition";
import { type Dialect, PERSISTED, type ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import { turnCounter } from "../runtime/agent-loop";
import type { CallSettings } from "../runtime/model-turn";
import { runInEnvironment } from "../runtime/run-environment";
import { systemPrompt } from "../runtime/system-prompt";
import { type Store, StoreError, type Transcript } from "../store";
import { titleFromMessage } from "../store/meta";
import { builtinTools, createRegistry, type Registry } from "../tools";
import { withoutServerPaths } from "../tools/registry";
import { owesTurn } from "../transcripts/fork";
import { TaskStepStream } from "../transcripts/task-step-stream";
import { claimTranscript } from "./active-runs";
import type { ServerConfig } from "./config";
import { lazyWorkspace } from "./lazy-workspace";
import type { LiveRun } from "./live-run";
import { providerRun } from "./provider-run";
import { resolveRunModel } from "./run-model";
import { RunBusyError, runRegistry } from "./run-registry";
import { runTag } from "./run-tag";
import { sseRecord } from "./sse";

export interface RunRequest {
  /** Absent: resume `transcriptId`, which must end where the model owes a turn (a fork). */
  message?: string;
  /** A built-in dialect's name, or a user-defined definition, validated (docs/dialects/custom.md). */
  dialect: Dialect | DialectDefinition;
  model?: { provider: string; id?: string; settings?: CallSettings & { paceMs?: number } };
  transcriptId?: string;
  system?: string;
  tools?: string[];
  /** `tasksteps`: the SSE records are TaskStep chunks (docs/transcript-file.md); the transcript still stores its records as always. */
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
 * The live-run limit (`WIRESCOPE_MAX_LIVE_RUNS`) counts the runs started here (not captured
 * calls): those going (`going`) and those between the limit's last check and their
 * registration (`starting`).
 */
let going = 0;
let starting = 0;

function refuseOverLimit({ maxLiveRuns }: ServerConfig): void {
  if (maxLiveRuns > 0 && going + starting >= maxLiveRuns)
    throw new RunRequestError(
      429,
      `runs: ${maxLiveRuns} runs are going on this server, its limit (WIRESCOPE_MAX_LIVE_RUNS); start this one when one has ended.`,
    );
}

/**
 * Starts a run (docs/http-api.md, docs/live-runs.md) and returns its SSE body: `run` first, then every event, chunk
 * and request record as it happens. The run belongs to the server (`run-registry.ts`):
 * closing the body does not stop it; a stop request, its own limits or a failed store write
 * do. Each record is also appended to the transcript.
 */
export async function startRun(
  request: RunRequest,
  dependencies: RunServiceDependencies,
): Promise<{ transcriptId: string; runId: string; body: ReadableStream<Uint8Array> }> {
  const { store, config } = dependencies;
  // Checked first too, so a refusal costs no store read (the exact check is below).
  refuseOverLimit(config);
  const now = dependencies.now ?? Date.now;
  const modelRequest = request.model ?? { provider: "demo" };
  const resolved = await resolveRunModel(modelRequest, request.dialect, { store, config });
  if (!resolved.ok) throw new RunRequestError(resolved.status, resolved.message);
  const chosen = resolved;
  const { settings = {} } = modelRequest;
  const { paceMs: _pace, ...userSettings } = settings;
  const provider = providerRun(chosen, userSettings, config);
  // A key the user types (or pastes into the system prompt) goes no further: not to the model,
  // not into any record, the transcript's system prompt or its title.
  const { redactText } = provider;
  request = {
    ...request,
    ...(request.message === undefined ? {} : { message: redactText(request.message) }),
    ...(request.system === undefined ? {} : { system: redactText(request.system) }),
  };
  const available = builtinRegistry(config.shell);

  const previous =
    request.transcriptId === undefined ? null : await store.getConversation(request.transcriptId);
  if (request.transcriptId !== undefined && previous === null) {
    throw new RunRequestError(404, `transcriptId: no transcript "${request.transcriptId}".`);
  }
  if (previous !== null && !sameDialect(dialectOf(previous.meta), request.dialect)) {
    throw new RunRequestError(
      400,
      `dialect: this conversation is in "${dialectLabel(dialectOf(previous.meta))}"; fork it (POST /api/transcripts/:id/fork with a dialect) to go on in "${dialectLabel(request.dialect)}".`,
    );
  }
  if (request.message === undefined && (previous === null || !owesTurn(previous.records))) {
    throw new RunRequestError(
      400,
      "message: required, unless transcriptId names a conversation that ends with a user message or tool results.",
    );
  }
  const { registry, system } = runSettings(request, previous, available);
  // Counted synchronously with the runs starting, so a burst cannot pass the limit together.
  refuseOverLimit(config);
  // Claimed synchronously after the last check, so two requests cannot both pass it.
  const claim = previous === null ? () => {} : claimTranscript(previous.meta.id);
  if (claim === null) throw busy(previous?.meta.id ?? "");
  let release = claim;
  starting++;
  try {
    return await begin();
  } catch (error) {
    release();
    throw error;
  } finally {
    starting--;
  }

  async function begin(): Promise<{
    transcriptId: string;
    runId: string;
    body: ReadableStream<Uint8Array>;
  }> {
    const meta =
      previous?.meta ??
      (await storing(() =>
        store.createTranscript({
          // From the redacted message: a key cut in half would no longer match.
          title: titleFromMessage(request.message ?? ""),
          dialect: baseDialect(request.dialect),
          ...(typeof request.dialect === "string" ? {} : { definition: request.dialect }),
          model: { provider: chosen.provider, id: chosen.id },
          system,
          tools: registry.names(),
        }),
      ));
    // A new conversation is claimed as soon as it exists: its id reaches the client first thing.
    if (previous === null) release = claimTranscript(meta.id) ?? release;
    // Made when a tool first needs it: seeding it here held back every later run's first record.
    const { workspace, tools } = lazyWorkspace(config.dataDir, meta.id);
    const controller = new AbortController();
    // Every running call listens for the interrupt; a wide batch is not a leak.
    setMaxListeners(0, controller.signal);
    // Nothing after `open` may throw before the run's `finally` is in place.
    const runs = runRegistry();
    const run = await storing(() =>
      runs.open({
        store,
        transcriptId: meta.id,
        controller,
        stopUnwatchedAfterMs: config.stopUnwatchedAfterS * 1000,
        // The store's check holds across instances sharing the database (the set above only here).
        exclusive: true,
        now,
      }),
    );
    going++;
    const { runId } = run;
    let counter = 0;
    const newId = () => `${runTag(runId)}-${++counter}`;
    // TaskStep clients get chunks instead of records; the ids are in the response headers.
    const body = request.format === "tasksteps" ? taskStepBody(run) : run.attach(0);
    const history = previous === null ? [] : conversationOf(previous);
    void runInEnvironment(
      {
        dialect: request.dialect,
        model: chosen.model,
        modelRef: { provider: chosen.provider, id: chosen.id },
        system,
        settings: provider.settings,
        streamTurn: provider.streamTurn,
        registry: tools(registry),
        workspace,
        relics: store,
        signal: controller.signal,
        now,
        newId,
        turns: turnCounter(previous === null ? 0 : nextTurn(previous)),
        maxTurns: config.maxTurns,
        emit: (produced) => {
          const { record, json } = provider.redact(produced);
          run.publish(record, json);
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
          // No server path leaves the server, the workspace's included.
          message: provider.redactText(
            `The run failed: ${withoutServerPaths(message, workspace.root)}`,
          ),
        };
        run.publish({ kind: "event", event });
      })
      // The catch above settles every failure of the run, so this always runs; its own
      // failure is reported, never left as an unhandled rejection.
      .then(async () => {
        // Released once every record is stored: the next run on it reads them as its history.
        await runs.finish(run, store, now);
        release();
      })
      .catch((error: unknown) => console.error("wirescope: could not finish a run:", error))
      .finally(() => {
        going--;
      });
    return { transcriptId: meta.id, runId, body };
  }
}

/**
 * The tools and system prompt of this run. A conversation keeps the ones stored with it unless
 * the request changes them; a prompt that was the default for the stored tools follows a change
 * of tools, a custom one stays.
 */
function runSettings(
  request: RunRequest,
  previous: Transcript | null,
  available: Registry,
): { registry: Registry; system: string } {
  const dialect = request.dialect;
  if (previous === null) {
    const registry = selectTools(available, request.tools);
    return { registry, system: request.system ?? defaultPrompt(dialect, registry) };
  }
  // Stored tools this server does not offer (the shell, turned off since) are left out.
  // An imported transcript may name a tool twice: it is offered once.
  const kept = [...new Set(previous.meta.tools)].filter(
    (name) => available.get(name) !== undefined,
  );
  const stored = sameNames(kept, available.names())
    ? available
    : createRegistry(kept.flatMap((name) => available.get(name) ?? []));
  const registry = request.tools === undefined ? stored : selectTools(available, request.tools);
  if (request.system !== undefined) return { registry, system: request.system };
  const wasDefault = previous.meta.system === defaultPrompt(dialect, stored);
  return {
    registry,
    system: wasDefault ? defaultPrompt(dialect, registry) : previous.meta.system,
  };
}

/**
 * The built-in tools, one registry per setting of the shell for the process: the tools are
 * stateless constants, so every run without its own list of tools shares it (and its prompts).
 */
const builtinRegistries = new Map<boolean, Registry>();

function builtinRegistry(shell: boolean): Registry {
  let registry = builtinRegistries.get(shell);
  if (registry === undefined) {
    registry = createRegistry(builtinTools({ shell }));
    builtinRegistries.set(shell, registry);
  }
  return registry;
}

/** The default system prompt for a dialect and tools (`systemPrompt` writes each once). */
function defaultPrompt(dialect: Dialect | DialectDefinition, registry: Registry): string {
  return systemPrompt(dialect, registry.describe());
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

/** The run's records as TaskStep chunks (docs/transcript-file.md), for `"format": "tasksteps"`. */
function taskStepBody(run: LiveRun): ReadableStream<Uint8Array> {
  const steps = new TaskStepStream();
  let stopListening = () => {};
  return new ReadableStream<Uint8Array>({
    start(stream) {
      let open = true;
      const write = (chunk: unknown) => {
        if (!open) return;
        try {
          stream.enqueue(sseRecord(chunk));
        } catch {
          open = false;
        }
      };
      stopListening = run.listen({
        record: (record) => {
          for (const chunk of steps.push(record)) write(chunk);
        },
        end: () => {
          for (const chunk of steps.end()) write(chunk);
          if (open) stream.close();
          open = false;
        },
      });
    },
    cancel() {
      stopListening();
    },
  });
}

/**
 * A store call before the run streams: a failure is a `503` naming storage, not a crash (a
 * database that cannot be used now is left to `jsonRoute`'s 503, which names why).
 */
async function storing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RunBusyError) throw busy(error.transcriptId);
    // The route answers it as every other (503 naming the cause, with Retry-After).
    if (error instanceof StoreError && error.code === "unavailable") throw error;
    console.error(
      "wirescope: could not store a run:",
      error instanceof Error ? error.message : error,
    );
    throw new RunRequestError(503, "storage: the run could not be saved (storage failed).");
  }
}

function busy(transcriptId: string): RunRequestError {
  return new RunRequestError(
    409,
    `transcriptId: "${transcriptId}" already has a run in progress; wait for it or stop it.`,
  );
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
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined)
    throw new RunRequestError(400, `tools: "${twice}" is named twice; name each tool once.`);
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
