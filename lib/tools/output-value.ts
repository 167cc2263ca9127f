/**
 * What a built-in tool's result stands for as a `$variable` (docs/dialects/action.md `output_key`): the part
 * a person or a later action wants, not the whole result object the model reads. Pure (no
 * `fs`), so the browser and the Markdown export use the same values as the runtime.
 */
import { isPlainObject } from "../protocol/safe-json";

type OutputValue = (content: unknown) => unknown;

/** One per built-in tool; a result of another shape keeps its content. */
const OUTPUT_VALUES: Record<string, OutputValue> = {
  /** The entries' paths, directories marked with a trailing `/`. */
  list: (content) => {
    if (!isPlainObject(content) || !Array.isArray(content.entries)) return content;
    return content.entries.filter(isPlainObject).map((entry) => {
      const path = String(entry.path);
      return entry.type === "directory" ? `${path}/` : path;
    });
  },
  /** The text read (already a string). */
  read: (content) => content,
  write: (content) => field(content, "file"),
  edit: (content) => field(content, "file"),
  /** The matching lines, `file:line: text`. */
  search: (content) => field(content, "matches"),
  calculate: (content) => field(content, "value"),
  /** What the command printed. */
  shell: (content) => field(content, "stdout"),
};

/** The value a successful `tool` result stores under its `output_key`. */
export function outputValue(tool: string, content: unknown): unknown {
  const pick = Object.hasOwn(OUTPUT_VALUES, tool) ? OUTPUT_VALUES[tool] : undefined;
  return pick === undefined ? content : pick(content);
}

function field(content: unknown, name: string): unknown {
  return isPlainObject(content) && name in content ? content[name] : content;
}
