/**
 * An event as JSON, one top-level field a line with compact values: the whole event, still
 * valid JSON, in a third of the lines `JSON.stringify(event, null, 2)` takes.
 */
export function eventJson(event: object): string {
  const fields = Object.entries(event).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return fields.length === 0 ? "{}" : `{\n${fields.join(",\n")}\n}`;
}
