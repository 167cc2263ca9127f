import type { StreamTurn, TurnPart } from "./model-turn";
import { HAS_TRIGGER, MIN_SECRET_LENGTH, redactSecrets } from "./redact";
import { transformParts } from "./turn-transform";

/**
 * A secret pattern's match (`redact.ts`) begins at a word holding one of its trigger words
 * and spans at most four whitespace-separated words (`"authorization" : "Bearer xyz"`), so
 * text before the last four words is final.
 */
const MATCH_WORDS = 4;
/** A run without whitespace longer than this is let go of: no credential is that long. */
const MAX_HELD = 4096;

export interface StreamRedactor {
  /**
   * The part of the text so far that is final, redacted; may be "". `at`: when `text` arrived
   * (any clock; the caller's record time), for `releasedAt`.
   */
  push(text: string, at?: number): string;
  /** Whatever was held back, redacted. */
  end(): string;
  /**
   * When the last character of what the last `push` or `end` returned arrived: the `at` of
   * that push when it let go of some of its own text, else of the last piece held. A chunk
   * record timed by it shows no text before the text came, and is timed as a live viewer saw
   * it; and what is held back at the end keeps when it came, not when the stream ended (a
   * model's last word and its finish can be far apart). Replays pace by it.
   */
  readonly releasedAt: number;
}

/**
 * Redaction for text that arrives in chunks, giving the same text as redacting it whole: a
 * secret split over several chunks is caught. Like a parser holding back a marker prefix, it
 * holds back only a tail that could still become part of a secret: the end of a configured
 * value, or the last few words when one of them could start a credential. Everything before
 * is redacted and returned at once, so the text still streams. Pure: no I/O, no timers.
 */
export function createStreamRedactor(secrets: readonly string[]): StreamRedactor {
  const values = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  let held = "";
  /** When the last piece of `held` arrived. */
  let heldAt = 0;
  let releasedAt = 0;
  return {
    push(text, at = 0) {
      const buffer = held + text;
      // Most text holds no trigger word: only its last word (which may still grow) is held,
      // and no pattern can match what is let go of.
      const quiet = !HAS_TRIGGER.test(buffer);
      const cut = Math.max(
        Math.min(quiet ? lastWordStart(buffer) : patternCut(buffer), valueCut(buffer, values)),
        buffer.length - MAX_HELD,
      );
      // What is let go of ends in `text` (it came now) or in what was held.
      releasedAt = cut > held.length ? at : heldAt;
      // What stays held ends with `text`, unless `text` is empty.
      if (text !== "") heldAt = at;
      held = buffer.slice(cut);
      const final = buffer.slice(0, cut);
      return quiet && values.length === 0 ? final : redactSecrets(final, values);
    },
    end() {
      const rest = held;
      releasedAt = heldAt;
      held = "";
      return redactSecrets(rest, values);
    },
    get releasedAt() {
      return releasedAt;
    },
  };
}

/**
 * Where the held-back tail starts: never inside a word (a word may still grow, and `\b` must
 * see the same neighbours as in the whole text), and before every word holding a trigger whose
 * match (up to `MATCH_WORDS` words) could reach the held tail or the text still to come.
 */
function patternCut(buffer: string): number {
  const endsInWord = buffer.length > 0 && !isSpace(buffer.charCodeAt(buffer.length - 1));
  // Words are numbered from the end (1 = last); the last `held` of them are held back.
  let held = endsInWord ? 1 : 0;
  let cut = buffer.length;
  let end = buffer.length;
  for (let number = 1; number <= held + MATCH_WORDS - 1; number++) {
    while (end > 0 && isSpace(buffer.charCodeAt(end - 1))) end--;
    if (end === 0) break;
    let start = end;
    while (start > 0 && !isSpace(buffer.charCodeAt(start - 1))) start--;
    if (number <= held || HAS_TRIGGER.test(buffer.slice(start, end))) {
      held = Math.max(held, number);
      cut = start;
    }
    end = start;
  }
  return cut;
}

/** Where the word `buffer` ends in starts (its length when it ends in whitespace). */
function lastWordStart(buffer: string): number {
  let start = buffer.length;
  while (start > 0 && !isSpace(buffer.charCodeAt(start - 1))) start--;
  return start;
}

/** Where the longest tail of `buffer` that starts a configured value begins. */
function valueCut(buffer: string, values: readonly string[]): number {
  let cut = buffer.length;
  for (const value of values) {
    const longest = Math.min(value.length - 1, buffer.length);
    for (let length = longest; length > 0; length--) {
      if (buffer.length - length >= cut) break;
      if (value.startsWith(buffer.slice(buffer.length - length))) {
        cut = buffer.length - length;
        break;
      }
    }
  }
  return cut;
}

// The same whitespace as the patterns' `\s` for the characters a model writes.
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x1680 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * A `StreamTurn` whose text is redacted as it streams: each text part carries what is final
 * (a part with nothing final yet is left out), and what was held back comes as one more text
 * part before the turn's last part. Chunk records keep their shape; a secret is never split
 * over them. The parser and the chunk records
 * both see the redacted text, so spans and replay agree with what is stored.
 */
export function redactingStreamTurn(
  streamTurn: StreamTurn,
  secrets: readonly string[],
): StreamTurn {
  return (input) => {
    const redactor = createStreamRedactor(secrets);
    const now = input.now ?? Date.now;
    let flushed = false;
    const flush = (out: TurnPart[]) => {
      if (flushed) return;
      flushed = true;
      const rest = redactor.end();
      if (rest !== "") out.push({ type: "text", text: rest, at: redactor.releasedAt });
    };
    return transformParts(
      streamTurn(input),
      (part, out) => {
        if (part.type !== "text") {
          flush(out);
          out.push(part);
          return;
        }
        const arrived = part.at ?? now();
        const text = flushed
          ? redactSecrets(part.text, secrets)
          : redactor.push(part.text, arrived);
        // Nothing final yet (all held back): no empty chunk record. Text that comes out as it
        // went in keeps its part (no copy per part); text that came earlier says when.
        if (text === "") return;
        const at = flushed ? arrived : redactor.releasedAt;
        if (at !== arrived) out.push({ type: "text", text, at });
        else out.push(text === part.text ? part : { ...part, text });
      },
      flush,
    );
  };
}
