import { BUILTIN_DEFINITIONS, type DialectDefinition, type DialectFamily } from "@/lib/protocol";
import { definitionIssues } from "@/lib/protocol/definition-schema";

/** One marker input of the editor: its path in the definition and what it is for. */
export interface MarkerSlot {
  path: string;
  label: string;
  /** Tags' respond and end may be left empty: the definition then has none. */
  optional?: boolean;
}

/** The marker inputs each family has, in the order the editor shows them. */
export const SLOTS: Record<DialectFamily, readonly MarkerSlot[]> = {
  tags: [
    { path: "think.0", label: "think open" },
    { path: "think.1", label: "think close" },
    { path: "batch.0", label: "batch open" },
    { path: "batch.1", label: "batch close" },
    { path: "respond.0", label: "respond open", optional: true },
    { path: "respond.1", label: "respond close", optional: true },
    { path: "end", label: "end", optional: true },
    { path: "results.0", label: "results open" },
    { path: "results.1", label: "results close" },
  ],
  delimiter: [
    { path: "think", label: "think" },
    { path: "call", label: "call" },
    { path: "execute", label: "execute" },
    { path: "respond", label: "respond" },
    { path: "end", label: "end" },
    { path: "results", label: "results" },
  ],
  hermes: [
    { path: "think.0", label: "think open" },
    { path: "think.1", label: "think close" },
    { path: "call.0", label: "call open" },
    { path: "call.1", label: "call close" },
    { path: "results.0", label: "results open" },
    { path: "results.1", label: "results close" },
  ],
};

/** What the editor edits: flat strings, so a half-typed definition can be held. */
export interface Draft {
  name: string;
  family: DialectFamily;
  markers: Record<string, string>;
  fieldName: string;
  fieldArgs: string;
}

export function draftOf(definition: DialectDefinition): Draft {
  const record = definition as unknown as Record<string, unknown>;
  const markers: Record<string, string> = {};
  for (const slot of SLOTS[definition.family]) {
    const [key, index] = slot.path.split(".");
    const value = record[key ?? ""];
    const text = index === undefined ? value : Array.isArray(value) ? value[Number(index)] : "";
    markers[slot.path] = typeof text === "string" ? text : "";
  }
  const defaults = definition.family === "hermes" ? "arguments" : "args";
  return {
    name: definition.name,
    family: definition.family,
    markers,
    fieldName: definition.fields?.name ?? "name",
    fieldArgs: definition.fields?.args ?? defaults,
  };
}

/** The draft as a definition object (not yet validated); empty optional markers are left out. */
export function definitionOf(draft: Draft): unknown {
  const out: Record<string, unknown> = { name: draft.name.trim(), family: draft.family };
  for (const slot of SLOTS[draft.family]) {
    const [key = "", index] = slot.path.split(".");
    const text = draft.markers[slot.path] ?? "";
    if (index === undefined) {
      if (!(slot.optional && text === "")) out[key] = text;
      continue;
    }
    const pair = (out[key] as string[] | undefined) ?? [];
    pair[Number(index)] = text;
    out[key] = pair;
  }
  // Both respond markers empty: no respond block, bare text is the response.
  const respond = out.respond;
  if (Array.isArray(respond) && respond.every((text) => text === "" || text === undefined))
    delete out.respond;
  const defaults = draft.family === "hermes" ? "arguments" : "args";
  if (draft.fieldName !== "name" || draft.fieldArgs !== defaults)
    out.fields = { name: draft.fieldName, args: draft.fieldArgs };
  return out;
}

export type Checked =
  | { ok: true; definition: DialectDefinition }
  | { ok: false; issues: Map<string, string> };

/** The draft checked by the same schema the server uses; problems keyed by dotted path. */
export function checkDraft(draft: Draft): Checked {
  const input = definitionOf(draft);
  const issues = definitionIssues(input);
  if (issues.length === 0) return { ok: true, definition: input as DialectDefinition };
  const byPath = new Map<string, string>();
  for (const issue of issues) if (!byPath.has(issue.path)) byPath.set(issue.path, issue.message);
  return { ok: false, issues: byPath };
}

/** The starting points: the three built-ins that are definitions. */
export const STARTERS = Object.values(BUILTIN_DEFINITIONS);
