import { REDACTED, type SecretPattern } from "./redact";
import { firstValue, valueCut } from "./redact-spans";

/**
 * What goes on with a secret the stream redactor let go of before it ended (longer than it
 * holds: `redact-stream.ts`): the characters its pattern's match would still take. The
 * redactor swallows them, across pushes, until one would not, so the secret's tail never goes
 * out after its redaction. Pure: one character at a time; only what may start a configured
 * value waits.
 */
export interface SecretTail {
  /** Whether `code` goes on with the secret (then it is swallowed). */
  takes(code: number): boolean;
  /**
   * Whether the characters taken last, all `.`, are left out of the match once it ends (a
   * credential's value does not end in `.`: `Bearer abc…xyz.` ends before the dot).
   */
  readonly leavesDots: boolean;
}

const DOT = 46;

const alnum = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const tokenCharacter = (code: number) => alnum(code) || code === 95 || code === 45;

/** A character outside `excluded` and not white space (the patterns' `[^\s…]`). */
function noneOf(excluded: string): (code: number) => boolean {
  const codes = new Set([...excluded].map((character) => character.charCodeAt(0)));
  return (code) => !codes.has(code) && !/\s/.test(String.fromCharCode(code));
}

/** What each pattern's match takes at its end (`redact.ts`'s `SECRET_PATTERNS`, last class). */
const TAKES: Record<SecretPattern, ((code: number) => boolean) | undefined> = {
  bearer: noneOf("\"',;()[]{}<>\\"),
  credentialField: noneOf("\"',;&()[]{}<>\\"),
  keyParameter: noneOf("&\"'\\"),
  prefixedKey: tokenCharacter,
  googleKey: tokenCharacter,
  vendorToken: (code) => alnum(code) || code === 95,
  underscoredKey: alnum,
  slackToken: (code) => alnum(code) || code === 45,
  jsonWebToken: tokenCharacter,
  // Twenty characters, then none: never longer than what is held.
  awsKey: undefined,
  // Its match ends before an `@` it needs: one reaching the end of the text is no match yet.
  urlPassword: undefined,
};

/** The patterns whose last character is never `.` (the match backs off trailing dots). */
const DOT_LESS_END = new Set<SecretPattern>(["bearer", "credentialField"]);

/** The tail of a secret `pattern` matched up to the end of the text so far; null: none. */
export function patternTail(pattern: SecretPattern): SecretTail | null {
  const takes = TAKES[pattern];
  if (takes === undefined) return null;
  const leavesDots = DOT_LESS_END.has(pattern);
  return { takes, leavesDots };
}

/**
 * The tail of a JWT still being written (`eyJ…`, `eyJ….eyJ…`, …): token characters, and as
 * many more `.` as parts are still to come (its third part ends at one). Dots it ends in are
 * left out: a JWT's match ends in a part, so a token stopping short of three gives them back.
 */
export function jsonWebTokenTail(dotsSeen: number): SecretTail {
  let dotsLeft = Math.max(0, 2 - dotsSeen);
  return {
    takes(code) {
      if (tokenCharacter(code)) return true;
      if (code !== DOT || dotsLeft === 0) return false;
      dotsLeft--;
      return true;
    },
    leavesDots: true,
  };
}

/**
 * Several tails at once (patterns whose matches all reached the end): a character goes on with
 * the secret while any of them takes it, each dropped at the first it does not (a match cannot
 * resume). Trailing dots are left out only when every tail that took them leaves them out.
 *
 * A configured value is replaced before any pattern runs (`redactSecrets`), so the tails see
 * it as `[redacted]`: a match going on into one ends where it starts (it is text again, and
 * redacted as such), but for a pattern taking brackets (`?key=…`), which swallows it too. The
 * last characters taken in that may start a value (fewer than the longest) wait in `pending`
 * until the next say whether they do.
 */
export class SecretTails {
  private tails: SecretTail[];
  /** `.`s swallowed since the last other character, held back until the tail says. */
  private dots = 0;
  private dotsLeftOut = true;
  private pending = "";

  constructor(
    tails: readonly SecretTail[],
    private readonly values: readonly string[] = [],
  ) {
    this.tails = [...tails];
  }

  get done(): boolean {
    return this.tails.length === 0;
  }

  /**
   * How many characters of `text` go on with the secret (swallowed); what follows is text
   * again. Once a character ends it, `done` is true and what follows it (trailing dots left
   * out of the match first) is `rest`, to be redacted as text.
   */
  swallow(text: string): { rest: string } {
    return this.feed(this.pending + text, false);
  }

  /** At the end of the text: what follows the secret (trailing dots it leaves out, if any). */
  end(): string {
    if (this.tails.length === 0) return "";
    // Nothing more comes: what waits is the tails' to take, values in it as `[redacted]`.
    const { rest } = this.feed(this.pending, true);
    this.tails = [];
    return this.leftOut() + rest;
  }

  /**
   * Gives `input` to the tails, each region of configured values as `[redacted]`; what may
   * still start or go on with one (`valueCut`, never inside a value held whole: another may
   * overlap it) waits in `pending` unless this is the `final` text.
   */
  private feed(text: string, final: boolean): { rest: string } {
    let input = text;
    this.pending = "";
    for (;;) {
      const hold = final ? input.length : valueCut(input, this.values);
      const value = firstValue(input.slice(0, hold), this.values);
      const upto = value !== null ? value.at : hold;
      const ended = this.take(input, upto);
      if (ended !== -1) return { rest: this.leftOut() + input.slice(ended) };
      if (value === null) {
        this.pending = input.slice(upto);
        return { rest: "" };
      }
      if (this.take(REDACTED, REDACTED.length) !== -1)
        return { rest: this.leftOut() + input.slice(value.at) };
      input = input.slice(value.at + value.length);
    }
  }

  /** Gives `text` up to `upto` to the tails: where the first they all refuse is, or -1. */
  private take(text: string, upto: number): number {
    for (let at = 0; at < upto; at++) {
      const code = text.charCodeAt(at);
      const taking = this.tails.filter((tail) => tail.takes(code));
      if (taking.length === 0) {
        this.tails = [];
        return at;
      }
      this.tails = taking;
      if (code === DOT) {
        if (this.dots === 0) this.dotsLeftOut = true;
        this.dots++;
        this.dotsLeftOut &&= taking.every((tail) => tail.leavesDots);
      } else this.dots = 0;
    }
    return -1;
  }

  private leftOut(): string {
    const dots = this.dots > 0 && this.dotsLeftOut ? ".".repeat(this.dots) : "";
    this.dots = 0;
    return dots;
  }
}
