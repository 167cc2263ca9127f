import type { SecretPattern } from "./redact";

/**
 * What goes on with a secret the stream redactor let go of before it ended (longer than it
 * holds: `redact-stream.ts`): the characters its pattern's match would still take. The
 * redactor swallows them, across pushes, until one would not, so the secret's tail never goes
 * out after its redaction. Pure: one character at a time, no buffer.
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
 * many more `.` as parts are still to come (its third part ends at one).
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
    leavesDots: false,
  };
}

/**
 * Several tails at once (patterns whose matches all reached the end): a character goes on with
 * the secret while any of them takes it, each dropped at the first it does not (a match cannot
 * resume). Trailing dots are left out only when every tail that took them leaves them out.
 */
export class SecretTails {
  private tails: SecretTail[];
  /** `.`s swallowed since the last other character, held back until the tail says. */
  private dots = 0;
  private dotsLeftOut = true;

  constructor(tails: readonly SecretTail[]) {
    this.tails = [...tails];
  }

  get done(): boolean {
    return this.tails.length === 0;
  }

  /**
   * How many characters of `text` go on with the secret (swallowed); what follows is text
   * again. Once a character ends it, `done` is true and trailing dots left out of the match
   * come back at the front of what follows (`rest`).
   */
  swallow(text: string): { rest: string } {
    let at = 0;
    for (; at < text.length && this.tails.length > 0; at++) {
      const code = text.charCodeAt(at);
      const taking = this.tails.filter((tail) => tail.takes(code));
      if (taking.length === 0) {
        this.tails = [];
        break;
      }
      this.tails = taking;
      if (code === DOT) {
        if (this.dots === 0) this.dotsLeftOut = true;
        this.dots++;
        this.dotsLeftOut &&= taking.every((tail) => tail.leavesDots);
      } else this.dots = 0;
    }
    if (this.tails.length > 0) return { rest: "" };
    return { rest: this.leftOut() + text.slice(at) };
  }

  /** At the end of the text: the trailing dots the match leaves out, if any. */
  end(): string {
    const rest = this.tails.length > 0 ? this.leftOut() : "";
    this.tails = [];
    return rest;
  }

  private leftOut(): string {
    const dots = this.dots > 0 && this.dotsLeftOut ? ".".repeat(this.dots) : "";
    this.dots = 0;
    return dots;
  }
}
