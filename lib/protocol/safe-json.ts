/** The one place untrusted text is parsed as JSON: never throws, always keeps the raw text. */
export type JsonResult =
  | { ok: true; value: unknown; raw: string }
  | { ok: false; error: string; raw: string };

export function safeParseJson(raw: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(raw), raw };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), raw };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How deeply anything stored from outside may nest (imports, fork edits, tool results). */
export const MAX_JSON_DEPTH = 64;

/**
 * The path (`a.0.b`) of the first value nested deeper than `limit` levels, or `undefined` when
 * `value` stays within it. Iterative, so a hostile 100,000-level value cannot overflow the stack;
 * it stops at the first value too deep, so it costs no more than the part it looked at.
 */
export function tooDeep(value: unknown, limit: number = MAX_JSON_DEPTH): string | undefined {
  const stack: { value: unknown; depth: number; path: readonly (string | number)[] }[] = [
    { value, depth: 0, path: [] },
  ];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.depth >= limit) return next.path.join(".");
    const entries = Array.isArray(next.value)
      ? next.value.map((item, index) => [index, item] as const)
      : Object.entries(next.value);
    for (const [key, item] of entries)
      if (typeof item === "object" && item !== null)
        stack.push({ value: item, depth: next.depth + 1, path: [...next.path, key] });
  }
  return undefined;
}
