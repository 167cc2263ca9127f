import { callShapeProblem, type FieldNames, toToolCall } from "./call-shape";
import { callFields, HERMES_DEFINITION, type HermesDefinition } from "./definition";
import type { Emitter } from "./emitter";
import type { Span } from "./events";
import { type Marker, triggersOf, wordBoundary } from "./markers";
import { isPlainObject, safeParseJson } from "./safe-json";
import type { ClosedBlock, TagGrammar, TagKind } from "./tag-parser";

/**
 * docs/dialects/hermes.md: `<think>`, `<tool_call>{"name", "arguments"}</tool_call>` (one call the moment
 * the block closes), bare text as the response. There is no batch marker: the turn's calls
 * form one batch, and `end()` emits the `execute` when the turn had a call or a call error
 * (a malformed or oversized block), spanning the first through the last call block.
 * An unclosed `<tool_call>` runs nothing and does not count, as an unclosed `<execute>`
 * in xml. A new grammar per parser: it remembers the turn's call blocks.
 */
export function hermesGrammar(definition: HermesDefinition = HERMES_DEFINITION): TagGrammar {
  const fields = callFields(definition);
  const marker = (text: string, kind: TagKind): Marker<TagKind> => {
    const boundary = wordBoundary(text);
    return boundary === undefined ? { text, kind } : { text, kind, boundary };
  };
  const openers = [
    marker(definition.think[0], "think"),
    marker(definition.call[0], "call"),
    marker(definition.results[0], "results"),
  ];
  const closers = {
    think: marker(definition.think[1], "think"),
    call: marker(definition.call[1], "call"),
    results: marker(definition.results[1], "results"),
    // Kinds this family has no opener for; never looked up.
    respond: marker(definition.think[1], "respond"),
    execute: marker(definition.call[1], "execute"),
    action: marker(definition.call[1], "action"),
  };
  let batch: Span | null = null;
  const opener = definition.call[0];
  return {
    name: definition.name,
    openers,
    closers,
    triggers: triggersOf([...openers, ...Object.values(closers)]),
    outsideText: "respond",
    singleResponse: false,
    closeJson(emit, block) {
      batch = batch === null ? { ...block.span } : { start: batch.start, end: block.span.end };
      if (!block.tooLarge) closeCallBlock(emit, block, opener, fields);
    },
    finish(emit) {
      if (batch === null) return;
      emit.push({
        type: "execute",
        id: emit.nextId(),
        timestamp: emit.now(),
        turn: emit.turn,
        span: batch,
      });
    },
  };
}

/** One `<tool_call>` block: one `call`, or one error for this block only. */
function closeCallBlock(
  emit: Emitter,
  block: ClosedBlock,
  opener: string,
  fields: FieldNames,
): void {
  const parsed = safeParseJson(block.text);
  const shape = `{"${fields.name}": "tool", "${fields.args}": {…}}`;
  if (!parsed.ok) {
    const message = `Invalid JSON in ${opener}: ${parsed.error}. Write ${shape}. It did not run.`;
    emit.error("invalid_json", message, block.span, { raw: block.text });
    return;
  }
  const value = withParsedArguments(parsed.value, fields.args);
  const problem = callShapeProblem(value, fields);
  if (problem !== null) {
    const message = `The ${opener} is not a valid call: ${problem}. Write ${shape}. It did not run.`;
    emit.error("invalid_call", message, block.span, { raw: block.text });
    return;
  }
  const id = emit.nextId();
  const call = toToolCall(id, value as Record<string, unknown>, fields);
  emit.push({ type: "call", id, timestamp: emit.now(), turn: emit.turn, span: block.span, call });
}

/** Some servers send `arguments` as a JSON string holding the object: parse it once. */
function withParsedArguments(value: unknown, args: string): unknown {
  if (!isPlainObject(value) || typeof value[args] !== "string") return value;
  const inner = safeParseJson(value[args] as string);
  return inner.ok && isPlainObject(inner.value) ? { ...value, [args]: inner.value } : value;
}
