import { assertNever, type ProtocolEvent } from "../protocol/events";
import { type EditBudget, myers } from "./myers";

/** A field of an event that differs between the sides. */
export type EventField = "name" | "args" | "status" | "content" | "code" | "message" | "reason";

/** One row of a turn's event list: an event of each side, or of one side only. */
export interface EventPair {
  a?: ProtocolEvent;
  b?: ProtocolEvent;
  /** Empty when the two are the same (ids and times aside); absent for a one-sided row. */
  fields?: EventField[];
}

const BUDGET: EditBudget = { maxDistance: 400, maxWork: 200_000 };

/**
 * Pairs the events of two turns (Myers over `type` + call name / tool / error code, so an
 * extra call does not shift the rest) and names the fields that differ in each pair. Events
 * left over between two pairs are paired with each other in order when of the same type
 * (a call renamed, an error of another code), else shown on their side only.
 */
export function diffEvents(a: readonly ProtocolEvent[], b: readonly ProtocolEvent[]): EventPair[] {
  const keysA = a.map(keyOf);
  const keysB = b.map(keyOf);
  const ops = myers(a.length, b.length, (i, j) => keysA[i] === keysB[j], BUDGET);
  const pairs: EventPair[] = [];
  let onlyA: ProtocolEvent[] = [];
  let onlyB: ProtocolEvent[] = [];
  const flush = () => {
    const count = Math.max(onlyA.length, onlyB.length);
    for (let index = 0; index < count; index++) {
      const left = onlyA[index];
      const right = onlyB[index];
      if (left !== undefined && right !== undefined && left.type === right.type)
        pairs.push({ a: left, b: right, fields: fieldsOf(left, right) });
      else {
        if (left !== undefined) pairs.push({ a: left });
        if (right !== undefined) pairs.push({ b: right });
      }
    }
    onlyA = [];
    onlyB = [];
  };
  if (ops === null) {
    // Over budget (hundreds of differing events in one turn): pair by position.
    onlyA = [...a];
    onlyB = [...b];
    flush();
    return pairs;
  }
  for (const op of ops) {
    if (op.op === "delete") onlyA.push(a[op.a] as ProtocolEvent);
    else if (op.op === "insert") onlyB.push(b[op.b] as ProtocolEvent);
    else {
      flush();
      const left = a[op.a] as ProtocolEvent;
      const right = b[op.b] as ProtocolEvent;
      pairs.push({ a: left, b: right, fields: fieldsOf(left, right) });
    }
  }
  flush();
  return pairs;
}

/** Whether any pair differs. */
export function eventsDiffer(pairs: readonly EventPair[]): boolean {
  return pairs.some((pair) => pair.fields === undefined || pair.fields.length > 0);
}

function keyOf(event: ProtocolEvent): string {
  switch (event.type) {
    case "call":
      return `call:${event.call.name}`;
    case "result":
      return `result:${event.payload.tool}`;
    case "error":
      return `error:${event.code}`;
    case "user":
    case "think":
    case "execute":
    case "respond":
    case "end":
    case "metric":
    case "interrupt":
      return event.type;
    default:
      return assertNever(event, "event");
  }
}

/** The fields that differ between two events of the same type. */
export function fieldsOf(a: ProtocolEvent, b: ProtocolEvent): EventField[] {
  const fields: EventField[] = [];
  const check = (field: EventField, left: unknown, right: unknown) => {
    if (!sameJson(left, right)) fields.push(field);
  };
  if (a.type === "call" && b.type === "call") {
    check("name", a.call.name, b.call.name);
    check("args", a.call.args, b.call.args);
  } else if (a.type === "result" && b.type === "result") {
    check("status", a.payload.status, b.payload.status);
    check("content", a.payload.content, b.payload.content);
  } else if (a.type === "error" && b.type === "error") {
    check("code", a.code, b.code);
    check("message", a.message, b.message);
  } else if (
    (a.type === "think" && b.type === "think") ||
    (a.type === "respond" && b.type === "respond") ||
    (a.type === "user" && b.type === "user")
  ) {
    check("content", a.content, b.content);
  } else if (a.type === "interrupt" && b.type === "interrupt") {
    check("reason", a.reason, b.reason);
  }
  return fields;
}

/** Deep equality of JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}
