import type { StreamTurn, TurnPart } from "./model-turn";
import { HAS_TRIGGER, MIN_SECRET_LENGTH, REDACTED, redactSecrets, SECRET_CHECKS } from "./redact";
import { outsideValues, secretSpans, startedValue, valueCut } from "./redact-spans";
import { jsonWebTokenTail, patternTail, type SecretTail, SecretTails } from "./secret-tail";
import { transformParts } from "./turn-transform";

/**
 * A secret pattern's match (`redact.ts`) begins at a word holding one of its trigger words
 * and spans at most four whitespace-separated words (`"authorization" : "Bearer xyz"`), so
 * text before the last four words is final.
 */
const MATCH_WORDS = 4;
/** A run without whitespace longer than this is let go of, around any secret (`forcedCut`). */
const MAX_HELD = 4096;
/**
 * A secret still growing at the end of what is held is held whole up to this length (a JWT
 * with large claims); past it, it is let go of redacted, and the characters that go on with it
 * are swallowed as they come (`secret-tail.ts`) until one ends it, so what is held stays
 * bounded and its tail never goes out. An `eyJ` run with no second part is no JWT past it (a
 * header is short; Base64 JSON starts so too): let go of as text (`redact-spans.ts`).
 */
const LONGEST_SECRET = 16_384;
/**
 * Working out a cut looks at everything held, so once a few hundred characters are held (text
 * thick with trigger words, a run without whitespace), it is worked out again only when the
 * new text reaches a quarter of what is held: each character is looked at a bounded number of
 * times, whatever the chunks' size. 120 KB of "key key …" in 16-character chunks took 0.8–1.1 s.
 */
const LAZY_FROM = 256;
const LAZY_SHARE = 4;

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
  /** Characters pushed since the cut was last worked out. */
  let unexamined = 0;
  /** The tail of a secret let go of before it ended, while it goes on. */
  let swallowing: SecretTails | undefined;
  return {
    push(text, at = 0) {
      if (swallowing !== undefined) {
        const { rest } = swallowing.swallow(text);
        if (!swallowing.done) {
          releasedAt = at;
          return "";
        }
        swallowing = undefined;
        // The character that ended the secret (and what follows) is text again.
        text = rest;
      }
      const buffer = held + text;
      unexamined += text.length;
      if (held.length >= LAZY_FROM && unexamined * LAZY_SHARE < held.length) {
        releasedAt = heldAt;
        if (text !== "") heldAt = at;
        held = buffer;
        return "";
      }
      unexamined = 0;
      // Most text holds no trigger word: only its last word (which may still grow) is held,
      // and no pattern can match what is let go of.
      const quiet = !HAS_TRIGGER.test(buffer);
      // Never inside a configured value held whole: one overlapping it may still be coming
      // (`…gh12` now, `gh12…` next), and what is let go of is redacted alone.
      const natural = outsideValues(
        buffer,
        Math.min(quiet ? lastWordStart(buffer) : patternCut(buffer), startedValue(buffer, values)),
        values,
      );
      const forced = buffer.length - MAX_HELD;
      const cut = forced > natural ? forcedCut(buffer, forced, values) : natural;
      if (typeof cut !== "number") {
        // A secret longer than what is held, still going on: all of it goes, redacted, and what
        // continues it is swallowed from here on.
        const tails = new SecretTails(cut.tails, values);
        const { rest } = tails.swallow(cut.rest);
        if (!tails.done) swallowing = tails;
        releasedAt = at;
        held = rest;
        heldAt = at;
        return cut.released;
      }
      // What is let go of ends in `text` (it came now) or in what was held.
      releasedAt = cut > held.length ? at : heldAt;
      // What stays held ends with `text`, unless `text` is empty.
      if (text !== "") heldAt = at;
      held = buffer.slice(cut);
      const final = buffer.slice(0, cut);
      return quiet && values.length === 0 ? final : redactSecrets(final, values);
    },
    end() {
      // What a swallowed secret's match leaves out (trailing dots, what waited to start a
      // configured value) is text.
      const rest = (swallowing?.end() ?? "") + held;
      swallowing = undefined;
      releasedAt = heldAt;
      held = "";
      unexamined = 0;
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

/** A secret too long to hold reaching the end of the buffer: all of it, redacted, and its tails. */
interface LongSecret {
  released: string;
  tails: SecretTail[];
  /**
   * What the buffer ends in after it, for the tails to take or leave: dots (a credential's
   * match may leave them out) and what may start a configured value.
   */
  rest: string;
}

/**
 * Where to let go of a run without whitespace longer than `MAX_HELD` (minified JSON, Base64):
 * at `at`, unless a secret found in what is held reaches across it (what is let go of is
 * redacted alone: a key cut in two would match no pattern in either part). Then before it,
 * held whole; or, when it starts the buffer (held that long already) or is longer than
 * `LONGEST_SECRET`, after it, let go of whole and redacted. A secret still growing at the
 * buffer's end is held up to `LONGEST_SECRET`; past it, the whole buffer is let go of with it
 * redacted and the tails of the patterns it matches say what to swallow next (`LongSecret`).
 */
function forcedCut(buffer: string, at: number, values: readonly string[]): number | LongSecret {
  if (values.length === 0 && !HAS_TRIGGER.test(buffer)) return at;
  const spans = secretSpans(buffer, values, LONGEST_SECRET);
  // A configured value may start in what the buffer ends in: held with what reaches into it.
  const started = valueCut(buffer, values);
  if (started < buffer.length) spans.push({ start: started, end: buffer.length });
  const across = (point: number) => spans.filter(({ start, end }) => start < point && end > point);
  const reaching = across(at);
  if (reaching.length === 0) return at;
  // Before every secret reaching across the cut, and any reaching across where they start.
  let first = Math.min(...reaching.map(({ start }) => start));
  for (let more = across(first); more.length > 0; more = across(first))
    first = Math.min(...more.map(({ start }) => start));
  if (first > 0 && buffer.length - first <= LONGEST_SECRET) return first;
  // Past every secret reaching across the cut, and any reaching across where they end.
  let last = Math.max(...reaching.map(({ end }) => end));
  for (let more = across(last); more.length > 0; more = across(last))
    last = Math.max(...more.map(({ end }) => end));
  // A credential's value never ends in `.`: one ending before dots the buffer ends in may go on.
  const beforeDots = withoutTrailingDots(buffer);
  if (last < beforeDots) return last;
  if (buffer.length < LONGEST_SECRET) return 0;
  return longSecret(buffer, values) ?? at;
}

/** The length of `buffer` without the `.`s it ends in. */
function withoutTrailingDots(buffer: string): number {
  let end = buffer.length;
  while (end > 0 && buffer.charCodeAt(end - 1) === 46) end--;
  return end;
}

/**
 * The buffer let go of with the secrets reaching its end redacted, and what would go on with
 * them; null when none is a secret yet (a `sk-…` run with no digit nor both cases: the check
 * may still say so, but nothing held says it now; a JWT's first part alone), and the cut falls
 * where it was forced. What may start a configured value and the dots before it or at the end
 * are the tails' first characters, not let go of: a credential's match leaves dots out unless
 * more of it follows, a JWT's takes them as its parts' dots, and any match ends where a value
 * starts (values are replaced first).
 */
function longSecret(buffer: string, values: readonly string[]): LongSecret | null {
  const head = buffer.slice(0, withoutTrailingDots(buffer.slice(0, valueCut(buffer, values))));
  const spans = secretSpans(head, values, LONGEST_SECRET);
  const ending = spans.filter(({ end }) => end >= head.length);
  const tails: SecretTail[] = [];
  for (const span of ending) {
    // A match its pattern's check refuses (`sk-sk-sk-…`, no key) is no secret as it stands.
    const check = span.pattern === undefined ? undefined : SECRET_CHECKS[span.pattern];
    if (check !== undefined && !check(buffer.slice(span.start, span.end))) continue;
    const tail =
      span.pattern !== undefined
        ? patternTail(span.pattern)
        : span.jwt === true && dotsIn(head, span.start) > 0
          ? jsonWebTokenTail(dotsIn(head, span.start))
          : null;
    if (tail !== null) tails.push(tail);
  }
  if (tails.length === 0) return null;
  let released = redactSecrets(head, values);
  if (!released.endsWith(REDACTED)) {
    // Only a JWT still being written reaches the end: no pattern matches it yet.
    const jwt = ending.find((span) => span.jwt === true);
    if (jwt === undefined) return null;
    released = `${redactSecrets(head.slice(0, jwt.start), values)}${REDACTED}`;
  }
  return { released, tails, rest: buffer.slice(head.length) };
}

/** The `.`s in `buffer` from `start` on (a JWT's parts so far, less one). */
function dotsIn(buffer: string, start: number): number {
  let dots = 0;
  for (let at = buffer.indexOf(".", start); at !== -1; at = buffer.indexOf(".", at + 1)) dots++;
  return dots;
}

/** Where the word `buffer` ends in starts (its length when it ends in whitespace). */
function lastWordStart(buffer: string): number {
  let start = buffer.length;
  while (start > 0 && !isSpace(buffer.charCodeAt(start - 1))) start--;
  return start;
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
