/**
 * The plan's spans while a run is read, and what happens once all its records are in.
 */

import { GEN_AI } from "./conventions";
import type { Attributes, PlannedSpan } from "./span-plan";

export interface PlanNode extends PlannedSpan {
  /** Latest moment anything under this node happened. */
  lastMs: number;
}

/**
 * A span covers everything recorded in it; a run or sub-agent span also covers its children.
 * Returns parents before children, otherwise in the order the spans were opened.
 */
export function finishNodes(nodes: PlanNode[], endedAt: number | undefined): PlannedSpan[] {
  const byKey = new Map(nodes.map((entry) => [entry.key, entry]));
  const depths = new Map<string, number>();
  const depth = (entry: PlanNode): number => {
    const known = depths.get(entry.key);
    if (known !== undefined) return known;
    const parent = entry.parent === undefined ? undefined : byKey.get(entry.parent);
    const value = parent === undefined ? 0 : 1 + depth(parent);
    depths.set(entry.key, value);
    return value;
  };
  const order = new Map(nodes.map((entry, index) => [entry.key, index]));
  const position = (entry: PlanNode) => order.get(entry.key) ?? 0;
  const root = nodes[0];
  if (root !== undefined && endedAt !== undefined) root.lastMs = Math.max(root.lastMs, endedAt);
  for (const entry of [...nodes].sort((a, b) => depth(b) - depth(a))) {
    entry.endMs = Math.max(entry.endMs, entry.startMs, entry.lastMs);
    const parent = entry.parent === undefined ? undefined : byKey.get(entry.parent);
    if (parent === undefined || !isAgent(parent)) continue;
    parent.startMs = Math.min(parent.startMs, entry.startMs);
    parent.lastMs = Math.max(parent.lastMs, entry.endMs);
  }
  return [...nodes]
    .sort((a, b) => depth(a) - depth(b) || position(a) - position(b))
    .map(({ lastMs: _last, ...span }) => span);
}

function isAgent(entry: PlanNode): boolean {
  return entry.key.startsWith("run:") || entry.key.startsWith("agent:");
}

export function lastCall(calls: Map<string, PlanNode[]>, callId: string): PlanNode | undefined {
  const list = calls.get(callId);
  return list?.[list.length - 1];
}

export function unanswered(
  calls: Map<string, PlanNode[]>,
  answered: Set<PlanNode>,
  callId: string,
): PlanNode | undefined {
  const list = calls.get(callId) ?? [];
  for (let index = list.length - 1; index >= 0; index--) {
    const tool = list[index];
    if (tool !== undefined && !answered.has(tool)) return tool;
  }
  return undefined;
}

/** A request's call settings as `gen_ai.request.*` attributes. */
export function settingsAttributes(settings: Record<string, unknown>): Attributes {
  const attributes: Attributes = {};
  const number = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) ? value : undefined;
  const temperature = number(settings.temperature);
  const topP = number(settings.topP);
  const maxTokens = number(settings.maxOutputTokens);
  if (temperature !== undefined) attributes[GEN_AI.requestTemperature] = temperature;
  if (topP !== undefined) attributes[GEN_AI.requestTopP] = topP;
  if (maxTokens !== undefined) attributes[GEN_AI.requestMaxTokens] = maxTokens;
  return attributes;
}
