import { VARIABLE_PATTERN, type VariableState } from "./variables";

/** The few mdast shapes this plugin touches (structural, so it needs no mdast types). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, string> };
}

export interface RemarkVariablesOptions {
  resolve(name: string): VariableState;
}

/**
 * A remark plugin that turns each `$name` in ordinary text into a `<span data-variable>`
 * element the markdown renderer shows as a value, a placeholder or a warning. Code spans and
 * code blocks are left alone (a `$name` there is code). Raw HTML never gets here: it stays
 * text.
 */
export function remarkVariables(options: RemarkVariablesOptions) {
  return (tree: { type: string }) => {
    walk(tree as MdNode, options.resolve);
  };
}

function walk(node: MdNode, resolve: RemarkVariablesOptions["resolve"]): void {
  const children = node.children;
  if (children === undefined) return;
  for (let index = 0; index < children.length; index++) {
    const child = children[index];
    if (child === undefined) continue;
    if (child.type === "text" && child.value?.includes("$")) {
      const parts = split(child.value, resolve);
      children.splice(index, 1, ...parts);
      index += parts.length - 1;
    } else walk(child, resolve);
  }
}

function split(text: string, resolve: RemarkVariablesOptions["resolve"]): MdNode[] {
  const parts: MdNode[] = [];
  let last = 0;
  for (const match of text.matchAll(VARIABLE_PATTERN)) {
    const name = match[1] ?? "";
    const at = match.index ?? 0;
    if (at > last) parts.push({ type: "text", value: text.slice(last, at) });
    const variable = resolve(name);
    parts.push({
      type: "variable",
      data: { hName: "span", hProperties: { dataVariable: name, dataState: variable.state } },
      children: [{ type: "text", value: variable.state === "value" ? variable.text : `$${name}` }],
    });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ type: "text", value: text.slice(last) });
  return parts;
}
