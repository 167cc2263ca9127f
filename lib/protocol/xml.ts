import { callShapeProblem, type FieldNames, toToolCall } from "./call-shape";
import { callFields, type TagsDefinition, XML_DEFINITION } from "./definition";
import type { Emitter } from "./emitter";
import type { Span } from "./events";
import { type Marker, triggersOf, wordBoundary } from "./markers";
import { safeParseJson } from "./safe-json";
import type { TagGrammar, TagKind } from "./tag-parser";

/** Seeds 001 and 003 (`<think>`, `<execute>[…]</execute>`, `<respond>`, `<end>`), or any `tags` definition. */
export function tagsGrammar(definition: TagsDefinition): TagGrammar {
  const fields = callFields(definition);
  const marker = (text: string, kind: TagKind): Marker<TagKind> => {
    const boundary = wordBoundary(text);
    return boundary === undefined ? { text, kind } : { text, kind, boundary };
  };
  const openers: Marker<TagKind>[] = [
    marker(definition.think[0], "think"),
    marker(definition.batch[0], "execute"),
    ...(definition.respond === undefined ? [] : [marker(definition.respond[0], "respond")]),
    ...(definition.end === undefined ? [] : [marker(definition.end, "end")]),
    marker(definition.results[0], "results"),
  ];
  const closers = {
    think: marker(definition.think[1], "think"),
    // Without respond markers (a definition may leave them out) only bare text is a response.
    respond: marker(definition.respond?.[1] ?? definition.think[1], "respond"),
    execute: marker(definition.batch[1], "execute"),
    results: marker(definition.results[1], "results"),
    action: marker(definition.batch[1], "action"),
    call: marker(definition.batch[1], "call"),
  };
  const batch = definition.batch[0];
  return {
    name: definition.name,
    openers,
    closers,
    triggers: triggersOf([...openers, ...Object.values(closers)]),
    outsideText: "respond",
    singleResponse: false,
    closeJson(emit, block) {
      if (block.tooLarge) {
        // Reported as block_too_large; the boundary still ends the turn.
        emit.push({
          type: "execute",
          id: emit.nextId(),
          timestamp: emit.now(),
          turn: emit.turn,
          span: block.span,
        });
        return;
      }
      const where = { batch, fields };
      closeExecuteBlock(emit, block.text, block.bodyStart, block.elements, block.span, where);
    },
  };
}

export const XML_GRAMMAR: TagGrammar = tagsGrammar(XML_DEFINITION);

/**
 * An execute block becomes one `call` per element, then `execute`. A block that is not a
 * valid array of well-formed calls yields one error and runs nothing, but the `execute`
 * still marks the turn's boundary (docs/dialects/xml.md).
 */
export function closeExecuteBlock(
  emit: Emitter,
  text: string,
  bodyStart: number,
  elements: readonly number[],
  span: Span,
  { batch, fields }: { batch: string; fields: FieldNames },
): void {
  const parsed = safeParseJson(text);
  const shape = `{"${fields.name}", "${fields.args}"}`;
  if (!parsed.ok) {
    const message = `Invalid JSON in ${batch}: ${parsed.error}. Write a JSON array of ${shape} objects.`;
    emit.error("invalid_json", message, span, { raw: text });
  } else if (!Array.isArray(parsed.value)) {
    const message = `${batch} must hold a JSON array of calls, like [{"${fields.name}": "list", "${fields.args}": {}}].`;
    emit.error("invalid_call", message, span, { raw: text });
  } else {
    const calls = parsed.value;
    const bad = calls.findIndex((call) => callShapeProblem(call, fields) !== null);
    if (bad >= 0) {
      const message = `Call ${bad + 1} of the ${batch} batch: ${callShapeProblem(calls[bad], fields)}. No call of this batch ran.`;
      emit.error("invalid_call", message, span, { raw: text });
    } else {
      const ownSpans = elements.length === calls.length * 2;
      calls.forEach((call, index) => {
        const id = emit.nextId();
        const start = bodyStart + (elements[index * 2] ?? 0);
        const end = bodyStart + (elements[index * 2 + 1] ?? 0);
        emit.push({
          type: "call",
          id,
          timestamp: emit.now(),
          turn: emit.turn,
          span: ownSpans ? { start, end } : { ...span },
          call: toToolCall(id, call as Record<string, unknown>, fields),
        });
      });
    }
  }
  emit.push({ type: "execute", id: emit.nextId(), timestamp: emit.now(), turn: emit.turn, span });
}
