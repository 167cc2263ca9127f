/**
 * The action scheduler's planning (docs/dialects/action.md), pure: which submitted actions may start now,
 * which can never start, and which must be skipped. No promises, no timers, no clock — the
 * adapter (`scheduler.ts`) runs what this says to start and reports back with `finish`.
 *
 * Every action waits on a set of edges, each fixed when it is added:
 * - `depends`: its `depends_on` ids (bound when the id is submitted, possibly later);
 * - `variable`: actions still to finish whose `output_key` it references (an implicit depends_on);
 * - `sequence`: unfinished `sync` actions before it in the same turn (a sequence point).
 * A failed or skipped `depends`/`variable` target skips the dependent unless the target had
 * `on_error: "skip"`; a `sequence` target only orders, whatever its outcome.
 */
import type { ActionMode, ResultStatus } from "../protocol/events";

type EdgeKind = "depends" | "variable" | "sequence";
const STRENGTH: Record<EdgeKind, number> = { depends: 2, variable: 1, sequence: 0 };

export interface PlanInput {
  /** The action's id (`call.call.id`). */
  id: string;
  turn: number;
  mode: ActionMode;
  outputKey?: string;
  dependsOn?: readonly string[];
  /** Variable names its parameters reference. */
  references?: readonly string[];
  /** `on_error: "skip"`: its failure does not skip its dependents. */
  tolerated?: boolean;
}

export type Decision =
  | { kind: "start"; index: number }
  /** `problem`: something the model wrote wrong, reported as a `dependency` error. */
  | { kind: "skip"; index: number; outcome: string; problem?: string };

export interface Plan {
  /** Registers the next action (its index is the submission count so far). */
  add(input: PlanInput): Decision[];
  /** A started action ended. */
  finish(index: number, status: ResultStatus): Decision[];
  /** End of the model's turn: ids never submitted will not come; their waiters are skipped. */
  closeTurn(): Decision[];
  /** Interrupt: every waiting action is skipped, and every later one on arrival. */
  cancel(): Decision[];
}

interface Node extends PlanInput {
  index: number;
  state: "waiting" | "running" | "done";
  status?: ResultStatus;
  edges: Map<number, EdgeKind>;
  /** `depends_on` ids not submitted yet. */
  pending: string[];
}

export function createPlan(): Plan {
  const nodes: Node[] = [];
  const byId = new Map<string, number[]>();
  let cancelled = false;

  const node = (index: number): Node => {
    const found = nodes[index];
    if (found === undefined)
      throw new Error(`No action at index ${index}; pass an index from add.`);
    return found;
  };
  const label = (index: number) => JSON.stringify(node(index).id);

  const addEdge = (from: Node, to: number, kind: EdgeKind) => {
    const existing = from.edges.get(to);
    if (existing === undefined || STRENGTH[kind] > STRENGTH[existing]) from.edges.set(to, kind);
  };

  /** This turn's action with that id, else the latest of an earlier turn. */
  const lookup = (id: string, turn: number): number | undefined => {
    const candidates = byId.get(id) ?? [];
    const sameTurn = candidates.filter((index) => node(index).turn === turn);
    const pool = sameTurn.length > 0 ? sameTurn : candidates.filter((i) => node(i).turn < turn);
    return pool.at(-1);
  };

  const skip = (target: Node, outcome: string, problem?: string): Decision => {
    target.state = "done";
    target.status = "skipped";
    return problem === undefined
      ? { kind: "skip", index: target.index, outcome }
      : { kind: "skip", index: target.index, outcome, problem };
  };

  /** Starts or skips every waiting action whose edges are all done, until nothing changes. */
  const advance = (decisions: Decision[]): Decision[] => {
    for (let changed = true; changed; ) {
      changed = false;
      for (const waiting of nodes) {
        if (waiting.state !== "waiting" || waiting.pending.length > 0) continue;
        const targets = [...waiting.edges.keys()].map(node);
        if (targets.some((target) => target.state !== "done")) continue;
        const broken = targets.find(
          (target) =>
            waiting.edges.get(target.index) !== "sequence" &&
            target.status !== "success" &&
            !target.tolerated,
        );
        if (broken === undefined) {
          waiting.state = "running";
          decisions.push({ kind: "start", index: waiting.index });
        } else {
          const how = broken.status === "skipped" ? "was skipped" : "failed";
          decisions.push(skip(waiting, `Skipped: dependency ${label(broken.index)} ${how}`));
        }
        changed = true;
      }
    }
    return decisions;
  };

  /** Members of the new node's strongly connected component, when it is a cycle. */
  const cycleThrough = (start: Node): Node[] => {
    const reach = (from: Node, next: (n: Node) => Iterable<Node>): Set<Node> => {
      const seen = new Set<Node>();
      const stack = [...next(from)];
      for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
        if (seen.has(current) || current.state === "done") continue;
        seen.add(current);
        stack.push(...next(current));
      }
      return seen;
    };
    const forward = reach(start, (n) => [...n.edges.keys()].map(node));
    if (!forward.has(start)) return [];
    const backward = reach(start, (n) => nodes.filter((other) => other.edges.has(n.index)));
    return [...forward].filter((member) => backward.has(member)).sort((a, b) => a.index - b.index);
  };

  return {
    add(input) {
      const index = nodes.length;
      const added: Node = { ...input, index, state: "waiting", edges: new Map(), pending: [] };
      const dependsOn = input.dependsOn ?? [];
      for (const id of dependsOn) {
        const target = lookup(id, input.turn);
        if (target === undefined) added.pending.push(id);
        else addEdge(added, target, "depends");
      }
      for (const earlier of nodes) {
        if (earlier.state === "done") continue;
        if (earlier.outputKey !== undefined && input.references?.includes(earlier.outputKey)) {
          addEdge(added, earlier.index, "variable");
        }
        if (earlier.mode === "sync" && earlier.turn === input.turn) {
          addEdge(added, earlier.index, "sequence");
        }
      }
      // Registered after the lookups, so a repeated id never binds to the action itself.
      nodes.push(added);
      byId.set(input.id, [...(byId.get(input.id) ?? []), index]);
      // Actions of this turn that were waiting for this id get their edge now.
      for (const waiting of nodes) {
        if (waiting.turn !== input.turn || !waiting.pending.includes(input.id)) continue;
        if (waiting === added) continue;
        waiting.pending = waiting.pending.filter((id) => id !== input.id);
        addEdge(waiting, index, "depends");
      }
      if (cancelled) return [skip(added, "Cancelled before it started")];
      if (dependsOn.includes(input.id)) {
        const problem = `Action ${label(index)} depends on itself, so it can never start.`;
        return advance([skip(added, "Skipped: depends on itself", problem)]);
      }
      const decisions: Decision[] = [];
      // Edges never change once bound, so a cycle formed now never resolves on its own. Skip
      // the members that *depend* inside it; members held only by a sequence point then run.
      const cycle = cycleThrough(added);
      if (cycle.length > 0) {
        const ids = cycle.map((member) => label(member.index)).join(", ");
        for (const member of cycle) {
          const inside = cycle.some(
            (other) => (member.edges.get(other.index) ?? "sequence") !== "sequence",
          );
          if (!inside) continue;
          const problem = `Actions ${ids} wait for each other (a dependency cycle); ${label(member.index)} was skipped.`;
          decisions.push(skip(member, "Skipped: dependency cycle", problem));
        }
      }
      return advance(decisions);
    },

    finish(index, status) {
      const finished = node(index);
      if (finished.state !== "running") {
        throw new Error(`Action ${label(index)} is not running; finish each started action once.`);
      }
      finished.state = "done";
      finished.status = status;
      return advance([]);
    },

    closeTurn() {
      const decisions: Decision[] = [];
      for (const waiting of nodes) {
        if (waiting.state !== "waiting" || waiting.pending.length === 0) continue;
        const ids = waiting.pending.map((id) => JSON.stringify(id)).join(", ");
        const problem = `Action ${label(waiting.index)} depends on ${ids}, which no action of this turn has as its id.`;
        decisions.push(skip(waiting, `Skipped: unknown dependency ${ids}`, problem));
      }
      return advance(decisions);
    },

    cancel() {
      cancelled = true;
      return nodes
        .filter((waiting) => waiting.state === "waiting")
        .map((waiting) => skip(waiting, "Cancelled before it started"));
    },
  };
}
