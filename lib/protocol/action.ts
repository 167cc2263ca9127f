import { depthProblem, describeValue } from "./call-shape";
import type { Emitter } from "./emitter";
import type { ActionMode, ActionSpec, ActionType, OnError } from "./events";
import { triggersOf } from "./markers";
import { isPlainObject, safeParseJson } from "./safe-json";
import type { ClosedBlock, TagGrammar } from "./tag-parser";

const TYPES: readonly ActionType[] = ["tool", "agent", "relic", "workflow", "llm"];
const MODES: readonly ActionMode[] = ["sync", "async", "fire_and_forget"];
const ON_ERROR: readonly OnError[] = ["skip", "fail", "retry"];
/** Bounds on what a model may ask for: a retry storm or a timer past setTimeout's range. */
export const MAX_RETRY = 10;
export const MAX_TIMEOUT_S = 3600;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ID = /^\S+$/;
const ATTRIBUTES = ["type", "mode", "id"];
const LT = triggersOf([{ text: "<", kind: "think" }]);

/** Seed 004: `<thought>`, `<action type mode id>{…}</action>`, `<response>`. A new grammar per parser: it remembers the turn's action ids. */
export function actionGrammar(): TagGrammar {
  const seen = new Set<string>();
  return {
    name: "action",
    openers: [
      { text: "<thought>", kind: "think" },
      { text: "<action", kind: "action", boundary: "tag" },
      { text: "<response>", kind: "respond" },
      { text: "<results>", kind: "results" },
    ],
    closers: {
      think: { text: "</thought>", kind: "think" },
      respond: { text: "</response>", kind: "respond" },
      action: { text: "</action>", kind: "action" },
      results: { text: "</results>", kind: "results" },
      execute: { text: "</execute>", kind: "execute" },
      call: { text: "</action>", kind: "call" },
    },
    triggers: LT,
    outsideText: "stray",
    singleResponse: true,
    closeJson(emit, block) {
      closeActionBlock(emit, block, seen);
    },
  };
}

type Problem = { code: "invalid_action" | "invalid_call" | "invalid_json"; message: string };
type Reading = { id: string | undefined; body: Record<string, unknown>; action: ActionSpec };

/** One action becomes one `call` the moment `</action>` arrives, or one error and nothing. */
function closeActionBlock(emit: Emitter, block: ClosedBlock, seen: Set<string>): void {
  if (block.tooLarge) return;
  const reading = readAction(block, seen);
  if ("code" in reading) {
    const message = `${reading.message} The action did not run.`;
    emit.error(reading.code, message, block.span, { raw: block.text });
    return;
  }
  const eventId = emit.nextId();
  // A generated id must not take one the model wrote (or will write: those are refused).
  let id = reading.id ?? eventId;
  for (let n = 2; reading.id === undefined && seen.has(id); n++) id = `${eventId}-${n}`;
  seen.add(id);
  const args = reading.body.parameters as Record<string, unknown>;
  emit.push({
    type: "call",
    id: eventId,
    timestamp: emit.now(),
    turn: emit.turn,
    span: block.span,
    call: { id, name: reading.body.name as string, args },
    action: reading.action,
  });
}

function readAction(block: ClosedBlock, seen: Set<string>): Reading | Problem {
  if (block.attributes === null) {
    return {
      code: "invalid_action",
      message: 'The <action …> opening tag is not closed with ">".',
    };
  }
  const attributes = parseAttributes(block.attributes);
  if (typeof attributes === "string") return { code: "invalid_action", message: attributes };
  const type = attributes.type ?? "tool";
  const mode = attributes.mode ?? "sync";
  if (!TYPES.includes(type as ActionType)) {
    const message = `Unknown action type "${type}"; use one of ${TYPES.join(", ")}.`;
    return { code: "invalid_action", message };
  }
  if (!MODES.includes(mode as ActionMode)) {
    const message = `Unknown action mode "${mode}"; use one of ${MODES.join(", ")}.`;
    return { code: "invalid_action", message };
  }
  const unknown = Object.keys(attributes).filter((name) => !ATTRIBUTES.includes(name));
  if (unknown.length > 0) {
    const message = `Unknown <action> attribute ${unknown.map((name) => `"${name}"`).join(", ")}; the tag takes type, mode and id — put other fields in the JSON body.`;
    return { code: "invalid_action", message };
  }
  if (attributes.id !== undefined && !ID.test(attributes.id)) {
    return {
      code: "invalid_action",
      message: `The action id "${attributes.id}" must be non-empty, without spaces.`,
    };
  }
  if (attributes.id !== undefined && seen.has(attributes.id)) {
    return {
      code: "invalid_action",
      message: `Duplicate action id "${attributes.id}" in this turn.`,
    };
  }
  const parsed = safeParseJson(block.text);
  if (!parsed.ok)
    return { code: "invalid_json", message: `Invalid JSON in <action>: ${parsed.error}.` };
  const body = parsed.value;
  const problem = bodyProblem(body);
  if (problem !== null || !isPlainObject(body)) {
    return { code: "invalid_call", message: `Bad <action> body: ${problem}.` };
  }
  const action: ActionSpec = { type: type as ActionType, mode: mode as ActionMode };
  if (body.output_key !== undefined) action.outputKey = body.output_key as string;
  if (body.depends_on !== undefined) action.dependsOn = body.depends_on as string[];
  if (body.timeout !== undefined) action.timeout = body.timeout as number;
  if (body.retry !== undefined) action.retry = body.retry as number;
  if (body.on_error !== undefined) action.onError = body.on_error as OnError;
  return { id: attributes.id, body, action };
}

function bodyProblem(body: unknown): string | null {
  if (!isPlainObject(body))
    return `expected a JSON object {"name", "parameters"}, got ${describeValue(body)}`;
  if (typeof body.name !== "string" || body.name.trim() === "")
    return `"name" must be a non-empty string`;
  if (!isPlainObject(body.parameters))
    return `"parameters" must be an object, got ${describeValue(body.parameters)}`;
  const deep = depthProblem("parameters", body.parameters);
  if (deep !== null) return deep;
  const key = body.output_key;
  if (key !== undefined && (typeof key !== "string" || !NAME.test(key))) {
    return `"output_key" must be a name like "web_data" (letters, digits, _)`;
  }
  const deps = body.depends_on;
  if (
    deps !== undefined &&
    (!Array.isArray(deps) || !deps.every((dep) => typeof dep === "string"))
  ) {
    return `"depends_on" must be an array of action ids`;
  }
  const timeout = body.timeout;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || !(timeout > 0) || timeout > MAX_TIMEOUT_S)
  ) {
    return `"timeout" must be a positive number of seconds, at most ${MAX_TIMEOUT_S}`;
  }
  const retry = body.retry;
  if (
    retry !== undefined &&
    (typeof retry !== "number" || !Number.isInteger(retry) || retry < 0 || retry > MAX_RETRY)
  ) {
    return `"retry" must be a whole number from 0 to ${MAX_RETRY}`;
  }
  if (body.on_error !== undefined && !ON_ERROR.includes(body.on_error as OnError)) {
    return `"on_error" must be one of ${ON_ERROR.join(", ")}`;
  }
  return null;
}

const ATTRIBUTE = /\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** `type="tool" mode='async' id="x"` in any order; a problem in words when malformed. */
export function parseAttributes(text: string): Record<string, string> | string {
  const values: Record<string, string> = {};
  ATTRIBUTE.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (text.slice(at).trim() === "") break;
    ATTRIBUTE.lastIndex = at;
    const match = ATTRIBUTE.exec(text);
    if (match === null) {
      return `Cannot read the <action> attributes at "${text.slice(at).trim().slice(0, 40)}"; write them as name="value".`;
    }
    const name = match[1] as string;
    if (name in values) return `The attribute "${name}" appears twice in the <action> tag.`;
    values[name] = match[2] ?? match[3] ?? "";
    at = ATTRIBUTE.lastIndex;
  }
  return values;
}
