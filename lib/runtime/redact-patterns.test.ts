import { describe, expect, it } from "vitest";
import {
  ALL_PATTERNS,
  HAS_TRIGGER,
  maskSecrets,
  REDACTED,
  redactSecrets,
  SECRET_PATTERNS,
  type SecretPattern,
} from "./redact";

/** Which patterns match `text` (a fresh regex each: the shared ones are global and stateful). */
const matching = (text: string) =>
  ALL_PATTERNS.filter((name) => new RegExp(SECRET_PATTERNS[name]).test(text));

// Each input is matched by its own pattern only, so switching any one pattern off leaks it.
const CASES: Record<SecretPattern, [text: string, secret: string][]> = {
  bearer: [
    ["leaked: Bearer abcdefghijklmnop in the log", "abcdefghijklmnop"],
    ["basic dXNlcjpwYXNzd29yZA== was sent", "dXNlcjpwYXNzd29yZA"],
  ],
  credentialField: [
    ["x-api-key=plainvalue-without-prefix", "plainvalue"],
    ['{"password": "hunter2hunter2"}', "hunter2"],
    ["authorization: opaque.value.12345", "opaque.value"],
  ],
  keyParameter: [
    ["GET https://host/v1/models?key=plainvalue123&alt=sse", "plainvalue123"],
    ["https://host/x?a=1&token=opaqueopaque", "opaqueopaque"],
  ],
  prefixedKey: [
    ["leaked sk-proj-abcdef1234567890", "sk-proj-abcdef1234567890"],
    ["use pk-live_0123456789 here", "pk-live_0123456789"],
    ["glued to a name: token_sk-abcdef1234567890", "sk-abcdef1234567890"],
    ["no digit, but random: sk-QwErTyUiOpAsDfGhJkLz", "sk-QwErTyUiOpAsDfGhJkLz"],
  ],
  googleKey: [["the key AIzaSyA1234567890abcdefghij works", "AIzaSyA1234567890abcdefghij"]],
  vendorToken: [
    ["token gsk_abcdefghijklmnopqrstu leaked", "gsk_abcdefghijklmnopqrstu"],
    ["clone with ghp_abcdefghijklmnop1234", "ghp_abcdefghijklmnop1234"],
    ["GITHUB_TOKEN=x_ghp_abcdefghijklmnop1234", "ghp_abcdefghijklmnop1234"],
  ],
  awsKey: [
    ["AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"],
    ["temporary ASIAY34FZKBOKMUTVV7A here", "ASIAY34FZKBOKMUTVV7A"],
  ],
  underscoredKey: [["stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"]],
  slackToken: [["SLACK=xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl"]],
  jsonWebToken: [
    [
      "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
      "dozjgNryP4J3jVmNHl0w5N",
    ],
  ],
  urlPassword: [["DATABASE_URL=postgres://admin:s3cretPassw0rd@db.internal/app", "s3cretPassw0rd"]],
};

describe("each redaction pattern alone", () => {
  for (const name of ALL_PATTERNS) {
    it.each(CASES[name])(`${name} alone hides the credential in %j`, (text, secret) => {
      expect(matching(text)).toEqual([name]);
      const redacted = redactSecrets(text);
      expect(redacted).not.toContain(secret);
      expect(redacted).toContain(REDACTED);
      // Without this one pattern the credential comes back: nothing else covers it.
      const without = ALL_PATTERNS.filter((other) => other !== name);
      expect(redactSecrets(text, [], without)).toContain(secret);
    });
  }

  // `redactSecrets` skips the patterns for text without a trigger word: every match needs one.
  it.each(ALL_PATTERNS.flatMap((name) => CASES[name].map(([text]) => [name, text] as const)))(
    "%s: its match holds a trigger word (%j)",
    (name, text) => {
      const match = new RegExp(SECRET_PATTERNS[name]).exec(text)?.[0] ?? "";
      expect(match).not.toBe("");
      expect(HAS_TRIGGER.test(match)).toBe(true);
    },
  );

  it("in JSON-escaped text (a result inside a request) a backslash ends the value", () => {
    const escaped = String.raw`{\"password\": \"hunter2hunter2\", \"note\": \"Bearer abcdefghij\nnext line\"}`;
    const redacted = redactSecrets(escaped);
    expect(redacted).not.toContain("hunter2");
    expect(redacted).not.toContain("abcdefghij");
    expect(redacted).toContain(String.raw`\nnext line`);
  });

  it("leaves the word basic in prose alone: only Base64-like credentials follow it", () => {
    for (const text of [
      "Explain basic concepts clearly.",
      "Basic English first, then basic arithmetic.",
      "A basic example of recursion",
    ])
      expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets("Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l")).not.toContain(
      "YWxhZGRpbjpvcGVuc2VzYW1l",
    );
    expect(redactSecrets("sent basic YWxhZGRpbjpvcGVuc2VzYW1l once")).toBe(
      `sent basic ${REDACTED} once`,
    );
  });

  it("leaves words joined by hyphens after sk-, pk- and rk- alone: keys are random", () => {
    for (const text of [
      '<div class="sk-folding-cube"><div class="sk-cube1 sk-cube"></div></div>',
      "the pk-primary-key-column and rk-rollback-strategy",
      "sk-SpinnerCube is a component",
    ])
      expect(redactSecrets(text)).toBe(text);
    // A digit anywhere in the run makes it key-shaped, also after hyphenated words.
    expect(redactSecrets("sk-folding-cube2x")).toBe(REDACTED);
  });

  it("takes linear time on long runs of trigger words (a pattern scanning the rest of the run from each took minutes)", () => {
    // 200 KB each: quadratic, as the scheme of `urlPassword` and the lookaheads of a first
    // `prefixedKey` were, these ran for minutes (120 KB: 5–25 s); now milliseconds, and the
    // test's timeout is what fails. None is a secret: each comes back as it went in.
    for (const unit of ["sk-", "x-sk-", "pk-a", "bearer.", "key.", "password.", "eyJa."]) {
      const text = unit.repeat(Math.ceil(200_000 / unit.length));
      expect(redactSecrets(text)).toBe(text);
      expect(maskSecrets(text)).toBe(text);
    }
  });

  it("keeps a URL's scheme and user, and text without a password", () => {
    expect(redactSecrets("postgres://admin:pw12345@db/app")).toBe(
      `postgres://admin:${REDACTED}@db/app`,
    );
    expect(redactSecrets("see https://example.com/a:b and mailto:x@y")).toBe(
      "see https://example.com/a:b and mailto:x@y",
    );
  });

  it("configured values alone: exact matches no pattern would catch", () => {
    const key = "Zq7Wv3Lm9Tx2";
    const text = `echo ${key} done`;
    expect(matching(text)).toEqual([]);
    expect(redactSecrets(text, [key])).toBe(`echo ${REDACTED} done`);
    expect(redactSecrets(text)).toBe(text);
    // Shorter than 8 characters: ignored, so ordinary words survive.
    expect(redactSecrets("the cat sat", ["cat"])).toBe("the cat sat");
  });
});
