import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import {
  baseDialect,
  callFields,
  type DialectDefinition,
  encodeTurn,
  mergePieces,
  parseAll,
  safeParseJson,
} from "../protocol";
import { isPlainObject } from "../protocol/safe-json";
import { scriptTurn } from "./demo-script";

/**
 * The demo model in a user-defined dialect (docs/dialects/custom.md): results messages written in the
 * definition's markers are read back into the family's built-in form, the built-in script
 * answers, and its turn is parsed and written again by the encoder in the definition's
 * markers. Malformed-output scenarios keep only their well-formed parts (errors are not
 * encodable), which is enough for a model that exists to show the protocol.
 */
export function definitionTurn(definition: DialectDefinition, prompt: LanguageModelV3Prompt) {
  const base = baseDialect(definition);
  const translated = prompt.map((message) => {
    if (message.role !== "user") return message;
    const content = message.content.map((part) =>
      part.type === "text" ? { ...part, text: builtinResults(definition, part.text) } : part,
    );
    return { ...message, content };
  });
  const text = scriptTurn(base, translated as LanguageModelV3Prompt);
  return encodeTurn(definition, mergePieces(parseAll(base, text)));
}

/** A results message in the definition's markers, rewritten in its family's built-in markers. */
function builtinResults(definition: DialectDefinition, text: string): string {
  const opener =
    typeof definition.results === "string" ? definition.results : definition.results[0];
  if (!text.trimStart().startsWith(opener)) return text;
  // The parser reports a results block as `model_wrote_results` and keeps its body as `raw`.
  const bodies = parseAll(definition, text).flatMap((event) =>
    event.type === "error" && event.code === "model_wrote_results" && event.raw !== undefined
      ? [event.raw.trim()]
      : [],
  );
  switch (definition.family) {
    case "tags":
      return `<results>\n${bodies[0] ?? "[]"}\n</results>`;
    case "delimiter": {
      // A `[` the marker opened was closed after the array: the raw body still holds it.
      const body = bodies[0] ?? "[]";
      const array = opener.startsWith("[") ? body.replace(/\]$/, "") : body;
      return `[SYSTEM: ${array}]`;
    }
    case "hermes": {
      // Each body names its tool under the definition's name field: back to `name`.
      const field = callFields(definition).name;
      const items = bodies.map((body) => {
        const parsed = safeParseJson(body);
        if (!parsed.ok || !isPlainObject(parsed.value)) return body;
        const { [field]: name, ...rest } = parsed.value;
        return JSON.stringify({ ...rest, name });
      });
      return items.map((body) => `<tool_response>\n${body}\n</tool_response>`).join("\n");
    }
  }
}
