/**
 * Records a replay test builds by hand (unit tests and e2e specs alike), as the agent loop and
 * the capture proxy write them. Only `lib/protocol`: a Playwright spec can import it too. Not
 * used by product code.
 */
import { createParser, type MetricEvent, type TranscriptRecord } from "../protocol";

export type RunRecord = TranscriptRecord & { runId: string };

/** A turn's metric as the agent loop writes it (one token in and out). */
function metricOf(runId: string, turn: number, timestamp: number, durationMs: number): RunRecord {
  return {
    kind: "event",
    runId,
    event: {
      type: "metric",
      id: `t${turn}-metric`,
      timestamp,
      turn,
      step: { input: 1, output: 1, durationMs, ttftMs: 1 },
      total: { input: 1, output: 1, durationMs },
    },
  };
}

/**
 * One turn of `text` streamed in `size`-character chunks (the first at `t`, each `t` its
 * offset further), each chunk followed by the xml parser's events (its clock `epoch`), then
 * the parser's end and the turn's metric at `metricAt`, lasting `durationMs`.
 */
export function streamedTurn(turn: {
  runId: string;
  turn: number;
  text: string;
  size: number;
  t: number;
  epoch: number;
  metricAt: number;
  durationMs: number;
}): RunRecord[] {
  const { runId, text, size } = turn;
  const out: RunRecord[] = [];
  const parser = createParser("xml", {
    turn: turn.turn,
    idPrefix: `t${turn.turn}-`,
    clock: () => turn.epoch,
  });
  for (let offset = 0; offset < text.length; offset += size) {
    const piece = text.slice(offset, offset + size);
    out.push({ kind: "chunk", runId, turn: turn.turn, t: turn.t + offset, text: piece });
    for (const event of parser.feed(piece)) out.push({ kind: "event", runId, event });
  }
  for (const event of parser.end()) out.push({ kind: "event", runId, event });
  out.push(metricOf(runId, turn.turn, turn.metricAt, turn.durationMs));
  return out;
}

/**
 * Calls an agent made at the same time, as the capture proxy records them (a run each, named
 * `call-<name>`, turn = its index, records interleaved as they arrived): started 15 ms apart
 * from `epoch`, the first opening with the user's message, each streaming `words` chunks 150 ms
 * apart (40 ms into its call first), parsed, then its metric at 6 s.
 */
export function parallelCalls(calls: {
  epoch: number;
  names: readonly string[];
  content: string;
  words: number;
  /** The text of a call's `index`-th chunk. */
  word: (name: string, index: number) => string;
  /** What each call's metric says it read and wrote. */
  tokens: { input: number; output: number };
  tokenSource?: MetricEvent["tokenSource"];
}): RunRecord[] {
  const { epoch, words, tokens } = calls;
  const out: RunRecord[] = [];
  const going = calls.names.map((name, turn) => ({
    name,
    turn,
    runId: `call-${name}`,
    start: epoch + turn * 15,
    parser: createParser("xml", { turn, idPrefix: `t${turn}-`, clock: () => epoch }),
  }));
  const first = going[0];
  if (first !== undefined)
    out.push({
      kind: "event",
      runId: first.runId,
      event: { type: "user", id: "u", timestamp: first.start, content: calls.content },
    });
  for (const call of going)
    out.push({
      kind: "request",
      runId: call.runId,
      turn: call.turn,
      t: 0,
      provider: "openai",
      model: "m",
      messages: [],
      settings: {},
    });
  for (let index = 0; index < words; index++) {
    for (const call of going) {
      const t = 40 + index * 150;
      const text = calls.word(call.name, index);
      out.push({ kind: "chunk", runId: call.runId, turn: call.turn, t, text });
      for (const event of call.parser.feed(text))
        out.push({
          kind: "event",
          runId: call.runId,
          event: { ...event, timestamp: call.start + t },
        });
    }
  }
  for (const call of going) {
    const end = call.start + 6000;
    for (const event of call.parser.end())
      out.push({ kind: "event", runId: call.runId, event: { ...event, timestamp: end } });
    out.push({
      kind: "event",
      runId: call.runId,
      event: {
        type: "metric",
        id: `t${call.turn}-metric`,
        timestamp: end,
        turn: call.turn,
        step: { ...tokens, durationMs: 6000, ttftMs: 40 },
        total: { ...tokens, durationMs: 6000 },
        ...(calls.tokenSource === undefined ? {} : { tokenSource: calls.tokenSource }),
      },
    });
  }
  return out;
}
