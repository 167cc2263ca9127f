import type { Random } from "./random";

/**
 * Building blocks of realistic model output: prose, markdown answers and source files.
 * Prose and markdown never contain a marker of any dialect (`<think>`, `§call:`, `[SYSTEM:` …),
 * so the encoder's output parses back to the same events; they do contain the characters the
 * parsers stop at (`<`, `>`, `[`) and lookalike tags, so the scan is not trivially fast.
 */

const WORDS = [
  "the",
  "config",
  "file",
  "parser",
  "test",
  "should",
  "because",
  "we",
  "need",
  "to",
  "check",
  "whether",
  "function",
  "returns",
  "value",
  "when",
  "input",
  "is",
  "empty",
  "module",
  "import",
  "error",
  "handler",
  "so",
  "that",
  "it",
  "and",
  "then",
  "update",
  "route",
  "schema",
  "request",
  "response",
  "stream",
  "chunk",
  "buffer",
  "this",
  "looks",
  "like",
  "a",
  "bug",
  "in",
  "cache",
  "layer",
  "user",
  "wants",
  "dark",
  "mode",
  "toggle",
  "component",
  "state",
  "hook",
  "props",
  "server",
  "client",
  "build",
  "fails",
  "on",
  "missing",
  "type",
  "annotation",
  "let",
  "me",
  "first",
  "read",
  "directory",
  "listing",
  "migration",
  "database",
  "index",
  "query",
  "slow",
  "naïve",
  "approach",
  "works",
  "but",
] as const;

const INLINE = [
  "`useEffect`",
  "`package.json`",
  "`Array<string>`",
  "`a < b`",
  "`x => x > 0`",
  '`<div className="card">`',
  "`Map<string, number>`",
  "`if (n >= 10)`",
  "`<thinking>`",
  "`tsconfig.json`",
  "`npm run build`",
  "`Promise<void>`",
  "→",
  "✅",
  "`i <= len`",
] as const;

const NAMES = ["loadUser", "parseConfig", "renderCard", "fetchPage", "mergeState", "retryAll"];
const TYPES = ["string", "number", "User", "Config", "Record<string, unknown>"];
const DIRS = ["src", "lib", "app/api", "components", "tests", "scripts", "docs"];
const EXTS = [".ts", ".tsx", ".md", ".json", ".py", ".html"];

export function sentence(random: Random): string {
  const count = random.int(6, 18);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    words.push(random.chance(0.08) ? random.pick(INLINE) : random.pick(WORDS));
  }
  const first = words[0] ?? "so";
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}${random.pick([".", ".", ".", "?", ":", "!"])}`;
}

/** Paragraphs of prose, about `length` characters. */
export function prose(random: Random, length: number): string {
  const paragraphs: string[] = [];
  let size = 0;
  while (size < length) {
    const sentences: string[] = [];
    const count = random.int(2, 6);
    for (let i = 0; i < count; i++) sentences.push(sentence(random));
    const paragraph = sentences.join(" ");
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join("\n\n");
}

/** A markdown answer: heading, bullets, a link, a fenced code block with generics. */
export function markdown(random: Random, length: number): string {
  const parts = [`## ${sentence(random).slice(0, 40)}`, prose(random, length / 3)];
  const bullets: string[] = [];
  for (let i = random.int(2, 5); i > 0; i--)
    bullets.push(`- **${random.pick(WORDS)}**: ${sentence(random)}`);
  parts.push(bullets.join("\n"));
  parts.push(
    `See [the docs](https://example.com/${random.pick(WORDS)}#${random.pick(WORDS)}) for details.`,
  );
  if (random.chance(0.6)) parts.push(`\`\`\`ts\n${code(random)}\n\`\`\``);
  parts.push(prose(random, length / 3));
  return parts.join("\n\n");
}

export function path(random: Random): string {
  return `${random.pick(DIRS)}/${random.pick(NAMES)}${random.pick(EXTS)}`;
}

function code(random: Random): string {
  const name = random.pick(NAMES);
  const type = random.pick(TYPES);
  return [
    `export function ${name}(items: Array<${type}>, limit = ${random.int(1, 99)}): ${type}[] {`,
    `  const out: ${type}[] = [];`,
    "  for (let i = 0; i < items.length && out.length < limit; i++) {",
    `    if (items[i] !== undefined && String(items[i]).includes("${random.pick(WORDS)}")) out.push(items[i]);`,
    "  }",
    `  return out.length > 0 ? out : [];`,
    "}",
  ].join("\n");
}

function html(random: Random): string {
  return [
    `<section class="card" data-id='${random.int(1, 999)}'>`,
    `  <h2>${sentence(random)}</h2>`,
    `  <p>${sentence(random)} &amp; ${sentence(random)}</p>`,
    "</section>",
  ].join("\n");
}

function python(random: Random): string {
  return [
    `def ${random.pick(NAMES)}(path):`,
    `    with open(path, 'r') as handle:`,
    `        lines = [l for l in handle if len(l) > ${random.int(0, 80)}]`,
    `    print("read %d lines\\n" % len(lines), "from \\"%s\\"" % path)`,
    "    return lines",
  ].join("\n");
}

/** A doc page that quotes every dialect's markers: inside a JSON string they are content. */
function protocolDoc(random: Random): string {
  return [
    `# Protocol notes (${random.pick(WORDS)})`,
    'Wrap calls as <execute>[{"name": "list", "args": {}}]</execute> and finish with <end>.',
    'The action dialect writes <action type="tool" mode="sync" id="a1">{…}</action>.',
    'The delimiter dialect writes §call: {"name": "x"} then §execute; results come as [SYSTEM: …].',
  ].join("\n");
}

/** The content of a file the model writes: code, HTML, Python, sometimes a protocol doc. */
export function fileContent(random: Random): string {
  const parts: string[] = [];
  for (let i = random.int(1, 3); i > 0; i--) {
    const roll = random.next();
    if (roll < 0.45) parts.push(code(random));
    else if (roll < 0.65) parts.push(html(random));
    else if (roll < 0.85) parts.push(python(random));
    else parts.push(protocolDoc(random));
  }
  return parts.join("\n\n");
}

export function shellCommand(random: Random): string {
  return random.pick([
    `npm test -- --grep "${random.pick(WORDS)}" 2>&1 | tail -n 20`,
    `grep -rn "${random.pick(NAMES)}" ${random.pick(DIRS)} | head -n ${random.int(5, 50)}`,
    `node -e "console.log(require('./package.json').version)"`,
    `ls -la ${random.pick(DIRS)} && wc -l ${path(random)}`,
  ]);
}
