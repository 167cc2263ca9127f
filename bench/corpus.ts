import {
  type ActionSpec,
  type CallEvent,
  type Dialect,
  encodeTurn,
  type ProtocolEvent,
} from "../lib/protocol";
import { Random } from "./random";
import { fileContent, markdown, path, prose, sentence, shellCommand } from "./text";

/**
 * A deterministic transcript: many model turns of one dialect, concatenated into one text.
 * Each turn is generated as events and written with `encodeTurn`, so the text is valid wire
 * text. The same seed gives the same turns whatever the target length, so the 1 MB text is
 * a prefix of the 2 MB one.
 */
export const SEED = 0x5eed2026;

export interface Corpus {
  dialect: Dialect;
  text: string;
  turns: number;
}

export function generateCorpus(dialect: Dialect, targetLength: number, seed = SEED): Corpus {
  const random = new Random(seed);
  const turns: string[] = [];
  let length = 0;
  let actionId = 0;
  const nextActionId = () => `a${++actionId}`;
  while (length < targetLength) {
    const turn = generateTurn(random, dialect, nextActionId);
    turns.push(turn);
    length += turn.length + 2;
  }
  return { dialect, text: turns.join("\n\n"), turns: turns.length };
}

function generateTurn(random: Random, dialect: Dialect, nextActionId: () => string): string {
  const events: ProtocolEvent[] = [think(prose(random, random.int(200, 2000)))];
  const final = random.chance(0.25);
  if (final) {
    events.push(respond(markdown(random, random.int(200, 2000))));
    events.push(end());
  } else {
    if (random.chance(0.3)) events.push(respond(sentence(random)));
    const ids: string[] = [];
    for (let i = random.int(1, 4); i > 0; i--) {
      const id = nextActionId();
      events.push(toolCall(random, id, dialect === "action" ? actionSpec(random, ids) : undefined));
      ids.push(id);
    }
    events.push(execute());
  }
  const wire = encodeTurn(dialect, events);
  // Bare prose before the blocks: a marker-less response in xml and delimiter. In the action
  // dialect it would only be `stray_text`, which models following that prompt rarely write.
  if (dialect !== "action" && random.chance(0.2)) {
    return `${prose(random, random.int(100, 600))}\n\n${wire}`;
  }
  return wire;
}

const base = { id: "", timestamp: 0, turn: 0, span: { start: 0, end: 0 } };

function think(content: string): ProtocolEvent {
  return { ...base, type: "think", content };
}

function respond(content: string): ProtocolEvent {
  return { ...base, type: "respond", content };
}

function end(): ProtocolEvent {
  return { ...base, type: "end" };
}

function execute(): ProtocolEvent {
  return { ...base, type: "execute" };
}

function toolCall(random: Random, id: string, action: ActionSpec | undefined): CallEvent {
  const [name, args] = toolArgs(random);
  const event: CallEvent = { ...base, type: "call", call: { id, name, args } };
  if (action !== undefined) event.action = action;
  return event;
}

function toolArgs(random: Random): [string, Record<string, unknown>] {
  const roll = random.next();
  if (roll < 0.3) return ["write_file", { path: path(random), content: fileContent(random) }];
  if (roll < 0.5) return ["read_file", { path: path(random) }];
  if (roll < 0.65) {
    return [
      "edit_file",
      { path: path(random), old_string: fileContent(random), new_string: fileContent(random) },
    ];
  }
  if (roll < 0.85) {
    return ["run_command", { command: shellCommand(random), timeout: random.int(5, 120) }];
  }
  return ["search", { query: sentence(random), glob: "**/*.{ts,tsx}", limit: random.int(5, 50) }];
}

function actionSpec(random: Random, earlier: readonly string[]): ActionSpec {
  const spec: ActionSpec = {
    type: random.chance(0.85) ? "tool" : "agent",
    mode: random.pick(["sync", "sync", "async", "async", "fire_and_forget"] as const),
  };
  if (random.chance(0.3)) spec.outputKey = `out_${earlier.length}`;
  if (earlier.length > 0 && random.chance(0.3)) spec.dependsOn = [random.pick(earlier)];
  if (random.chance(0.2)) spec.timeout = random.int(5, 60);
  return spec;
}
