import type { Dialect } from "../protocol";

/**
 * The demo's long answer, for "explain …" or "a long answer": Markdown with headings, lists, a
 * code block and a table, so the timeline's rendering has something real to show. No `<`,
 * `§` or `$` inside, so no dialect reads a marker or a variable in it.
 */
export function longAnswer(dialect: Dialect): string {
  return `## How Wirescope reads a model

A model here writes **plain text**. Wirescope reads that text as it streams, in the ${dialect} dialect, and turns it into events the timeline shows.

### What happens to each piece

1. The text arrives in small pieces, in any size.
2. An incremental parser holds back only what could still become a marker.
3. Each block becomes an event: *think*, *respond*, *call*, *execute*, *end*.
4. Calls run as tools; their results go back to the model as the next user message.

Malformed text is never dropped: it becomes an **error** event that points at its span in the raw view.

### A call, as the parser sees its body

\`\`\`json
{ "name": "read", "args": { "file": "notes/todo.md" } }
\`\`\`

### The built-in dialects

| Dialect | Calls written as | Batch ends with | Results come back as |
| --- | --- | --- | --- |
| xml | a JSON list in a tag | an execute tag | a results tag |
| delimiter | one line per call | an execute line | a SYSTEM line |
| action | one tagged action each | nothing: each runs at once | a results tag |

### Try next

- Ask for "list the files and read one" to watch two steps.
- Ask for "demo: invalid json" to see how an error is shown.
- Open the debug panel and hover any card to see its raw text.`;
}
