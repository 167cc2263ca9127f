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
