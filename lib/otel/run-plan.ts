import type { ProtocolEvent } from "../protocol/events";
import type { RequestRecord } from "../protocol/records";
import type { TranscriptMeta } from "../store/store";
import { GEN_AI, providerName, ROOT_AGENT, SPAN_EVENT, WIRESCOPE } from "./conventions";
import { spanIdOf, traceIdOf } from "./ids";
import { finishNodes, lastCall, type PlanNode, settingsAttributes, unanswered } from "./plan-nodes";
import type { Attributes, PlannedSpan, PlanOptions, RunInput } from "./span-plan";

/** Errors that stop a run (or a sub-agent): its span's status becomes an error. */
const STOPPING = new Set([
  "max_turns",
  "circuit_breaker",
  "provider",
  "storage_failed",
  "internal",
]);

interface Turn {
  node: PlanNode;
  number: number;
  /** The parent call id of the agent it belongs to ("" = the run itself); unknown until an event says. */
  scope?: string;
  measured: boolean;
  raw: string[];
  rawLength: number;
  answers: Map<string, string>;
}

interface Scope {
  node: PlanNode;
  input: number;
  output: number;
}

/**
 * One run's spans: `invoke_agent` (the run) → `chat {model}` (each model turn, with token
 * usage from its `metric` event) → `execute_tool {name}` (each call, timed by its result) →
 * `invoke_agent {name}` for a sub-agent the call started, whose turns nest under it in turn.
 * Parents come before children in the returned list.
 */
export function planRun(meta: TranscriptMeta, run: RunInput, options: PlanOptions): PlannedSpan[] {
  const { content, redact } = options;
  const traceId = traceIdOf(meta.id, run.runId);
  const anchor = run.startedAt ?? firstTimestamp(run.records) ?? meta.createdAt;
  const nodes: PlanNode[] = [];
  const node = (
    key: string,
    parent: string | undefined,
    name: string,
    startMs: number,
  ): PlanNode => {
    const created: PlanNode = {
      key,
      ...(parent === undefined ? {} : { parent }),
      traceId,
      spanId: spanIdOf(meta.id, key),
      name,
      kind: "internal",
      startMs,
      endMs: startMs,
      lastMs: startMs,
      attributes: {},
      events: [],
    };
    nodes.push(created);
    return created;
  };
  const common = (provider: string, model: string): Attributes => ({
    [GEN_AI.provider]: providerName(provider),
    [GEN_AI.system]: providerName(provider),
    [GEN_AI.requestModel]: model,
    [GEN_AI.conversationId]: meta.id,
  });

  const root = node(`run:${run.runId}`, undefined, `invoke_agent ${ROOT_AGENT}`, anchor);
  Object.assign(root.attributes, {
    [GEN_AI.operation]: "invoke_agent",
    [GEN_AI.agentName]: ROOT_AGENT,
    ...common(meta.model.provider, meta.model.id),
    [WIRESCOPE.transcriptId]: meta.id,
    [WIRESCOPE.runId]: run.runId,
    [WIRESCOPE.dialect]: meta.definition?.name ?? meta.dialect,
    [WIRESCOPE.source]: meta.source,
  });
  if (content && meta.system !== "")
    root.attributes[GEN_AI.systemInstructions] = JSON.stringify([
      { type: "text", content: redact(meta.system) },
    ]);
  const scopes = new Map<string, Scope>([["", { node: root, input: 0, output: 0 }]]);
  const turns = new Map<number, Turn>();
  const unmeasured: Turn[] = [];
  /** Calls by id, each list oldest first; a result answers the last unanswered one. */
  const calls = new Map<string, PlanNode[]>();
  const answered = new Set<PlanNode>();

  const touch = (target: PlanNode, ms: number) => {
    if (ms > target.lastMs) target.lastMs = ms;
  };
  const scopeOf = (parent: string | undefined): Scope =>
    scopes.get(parent ?? "") ?? (scopes.get("") as Scope);
  const turnOf = (number: number, ms: number): Turn => {
    const known = turns.get(number);
    if (known !== undefined) return known;
    return openTurn(number, ms, undefined);
  };
  const openTurn = (number: number, ms: number, request: RequestRecord | undefined): Turn => {
    const turnNode = node(`turn:${run.runId}:${number}`, root.key, "", ms);
    turnNode.kind = "client";
    const provider = request?.provider ?? meta.model.provider;
    const model = request?.model ?? meta.model.id;
    turnNode.name = `chat ${model}`;
    Object.assign(turnNode.attributes, {
      [GEN_AI.operation]: "chat",
      ...common(provider, model),
      [GEN_AI.outputType]: "text",
      [WIRESCOPE.turn]: number,
      ...(request === undefined ? {} : settingsAttributes(request.settings)),
    });
    if (content && request !== undefined)
      turnNode.attributes[GEN_AI.inputMessages] = redact(JSON.stringify(request.messages));
    const turn: Turn = {
      node: turnNode,
      number,
      measured: false,
      raw: [],
      rawLength: 0,
      answers: new Map(),
    };
    turns.set(number, turn);
    unmeasured.push(turn);
    return turn;
  };
  /** The first event naming a turn says whose it is: the run's or a sub-agent's. */
  const claim = (turn: Turn, parent: string | undefined) => {
    if (turn.scope !== undefined) return;
    turn.scope = parent ?? "";
    const owner = scopeOf(parent);
    turn.node.parent = owner.node.key;
  };
  const recordError = (
    target: PlanNode,
    event: Extract<ProtocolEvent, { type: "error" }>,
    stops: boolean,
  ) => {
    target.events.push({
      name: SPAN_EVENT.error,
      timeMs: event.timestamp,
      attributes: {
        "exception.type": event.code,
        "exception.message": redact(event.message),
        [WIRESCOPE.errorCode]: event.code,
      },
    });
    if (stops) target.error = { type: event.code, message: redact(event.message) };
    touch(target, event.timestamp);
  };

  for (const record of run.records) {
    if (record.kind === "request") {
      const existing = turns.get(record.turn);
      if (existing === undefined) openTurn(record.turn, anchor + record.t, record);
      continue;
    }
    if (record.kind === "chunk") {
      const turn = turnOf(record.turn, anchor + record.t);
      turn.rawLength += record.text.length;
      if (content) turn.raw.push(record.text);
      touch(turn.node, anchor + record.t);
      continue;
    }
    const event = record.event;
    const at = event.timestamp;
    const scope = scopeOf(event.parent);
    touch(scope.node, at);
    if ("turn" in event && typeof event.turn === "number") {
      const turn = turnOf(event.turn, at);
      claim(turn, event.parent);
      if (event.type !== "result") touch(turn.node, at);
    }
    switch (event.type) {
      case "user": {
        if (event.parent === undefined) break;
        const caller = lastCall(calls, event.parent);
        if (caller === undefined || scopes.has(event.parent)) break;
        const agent = node(`agent:${run.runId}:${caller.key}`, caller.key, "", at);
        const name = String(caller.attributes[GEN_AI.toolName] ?? "agent");
        agent.name = `invoke_agent ${name}`;
        Object.assign(agent.attributes, {
          [GEN_AI.operation]: "invoke_agent",
          [GEN_AI.agentName]: name,
          ...common(meta.model.provider, meta.model.id),
        });
        if (content)
          agent.attributes[GEN_AI.inputMessages] = JSON.stringify([
            { role: "user", parts: [{ type: "text", content: redact(event.content) }] },
          ]);
        scopes.set(event.parent, { node: agent, input: 0, output: 0 });
        break;
      }
      case "call": {
        const turn = turnOf(event.turn, at);
        const tool = node(
          `tool:${run.runId}:${event.id}`,
          turn.node.key,
          `execute_tool ${event.call.name}`,
          at,
        );
        Object.assign(tool.attributes, {
          [GEN_AI.operation]: "execute_tool",
          [GEN_AI.toolName]: event.call.name,
          [GEN_AI.toolCallId]: event.call.id,
          [GEN_AI.toolType]: "function",
          [WIRESCOPE.turn]: event.turn,
          ...(event.action === undefined
            ? {}
            : {
                [WIRESCOPE.actionType]: event.action.type,
                [WIRESCOPE.actionMode]: event.action.mode,
              }),
        });
        if (content)
          tool.attributes[GEN_AI.toolArguments] = redact(JSON.stringify(event.call.args));
        const list = calls.get(event.call.id) ?? [];
        list.push(tool);
        calls.set(event.call.id, list);
        break;
      }
      case "result": {
        const tool = unanswered(calls, answered, event.callId);
        if (tool === undefined) break;
        answered.add(tool);
        const { payload } = event;
        // The call is parsed when the model writes it; the tool runs for `durationMs` up to
        // its result, which may be well after (xml runs a batch after the turn's stream).
        tool.startMs = Math.max(tool.startMs, at - payload.durationMs);
        tool.endMs = at;
        tool.lastMs = Math.max(tool.lastMs, at);
        tool.attributes[WIRESCOPE.toolStatus] = payload.status;
        tool.attributes[WIRESCOPE.toolOutcome] = redact(payload.outcome);
        if (payload.status === "failure")
          tool.error = { type: "tool_failed", message: redact(payload.outcome) };
        if (content)
          tool.attributes[GEN_AI.toolResult] = redact(
            typeof payload.content === "string"
              ? payload.content
              : JSON.stringify(payload.content ?? null),
          );
        break;
      }
      case "metric": {
        const turn = measuredTurn(unmeasured, event.parent ?? "");
        scope.input += event.step.input;
        scope.output += event.step.output;
        if (turn === undefined) break;
        turn.measured = true;
        claim(turn, event.parent);
        Object.assign(turn.node.attributes, {
          [GEN_AI.inputTokens]: event.step.input,
          [GEN_AI.outputTokens]: event.step.output,
          ...(event.step.ttftMs === undefined ? {} : { [WIRESCOPE.ttftMs]: event.step.ttftMs }),
          ...(event.step.cacheRead === undefined
            ? {}
            : { [GEN_AI.cacheReadTokens]: event.step.cacheRead }),
          ...(event.step.cacheWrite === undefined
            ? {}
            : { [GEN_AI.cacheWriteTokens]: event.step.cacheWrite }),
        });
        turn.node.startMs = Math.min(turn.node.startMs, at - event.step.durationMs);
        turn.node.endMs = at;
        break;
      }
      case "respond": {
        if (!content) break;
        const turn = turnOf(event.turn, at);
        turn.answers.set(event.id, (turn.answers.get(event.id) ?? "") + event.content);
        break;
      }
      case "error": {
        const tool = event.callId === undefined ? undefined : lastCall(calls, event.callId);
        if (tool !== undefined) recordError(tool, event, true);
        else if (event.turn !== undefined)
          recordError(turnOf(event.turn, at).node, event, event.code === "provider");
        else recordError(scope.node, event, STOPPING.has(event.code));
        break;
      }
      case "interrupt": {
        scope.node.events.push({
          name: SPAN_EVENT.interrupt,
          timeMs: at,
          attributes: { [WIRESCOPE.interruptReason]: event.reason },
        });
        scope.node.attributes[WIRESCOPE.interruptReason] = event.reason;
        if (event.reason === "crash")
          scope.node.error = { type: "crash", message: "The server stopped during the run." };
        break;
      }
      case "think":
      case "execute":
      case "end":
        break;
    }
  }

  for (const turn of turns.values()) {
    if (!turn.measured) turn.node.endMs = Math.max(turn.node.endMs, turn.node.lastMs);
    turn.node.attributes[WIRESCOPE.wireLength] = turn.rawLength;
    if (content) {
      turn.node.attributes[WIRESCOPE.wire] = redact(turn.raw.join(""));
      if (turn.answers.size > 0)
        turn.node.attributes[GEN_AI.outputMessages] = JSON.stringify([
          {
            role: "assistant",
            parts: [...turn.answers.values()].map((text) => ({
              type: "text",
              content: redact(text),
            })),
          },
        ]);
    }
    if (turn.scope === undefined) turn.scope = "";
  }
  for (const [, scope] of scopes) {
    scope.node.attributes[GEN_AI.inputTokens] = scope.input;
    scope.node.attributes[GEN_AI.outputTokens] = scope.output;
  }
  root.attributes[WIRESCOPE.turns] = turns.size;
  return finishNodes(nodes, run.endedAt ?? undefined);
}

function firstTimestamp(records: RunInput["records"]): number | undefined {
  for (const record of records)
    if (record.kind === "event" && record.event.timestamp > 0) return record.event.timestamp;
  return undefined;
}

/** A metric measures the latest unmeasured turn of its agent (metric events carry no turn). */
function measuredTurn(unmeasured: Turn[], scope: string): Turn | undefined {
  let fallback: Turn | undefined;
  for (let index = unmeasured.length - 1; index >= 0; index--) {
    const turn = unmeasured[index];
    if (turn === undefined || turn.measured) continue;
    if (turn.scope === scope) return turn;
    if (turn.scope === undefined) fallback ??= turn;
  }
  return fallback;
}
