import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StreamTurn, TurnPart } from "./model-turn";
import { REDACTED, redactSecrets } from "./redact";
import { createStreamRedactor, redactingStreamTurn } from "./redact-stream";

const KEY = "wsk-Configured0Key0Value42";

/** Feeds `chunks` through a stream redactor; returns what each push gave and the joined text. */
function streamed(chunks: readonly string[], secrets: readonly string[] = [KEY]) {
  const redactor = createStreamRedactor(secrets);
  const pieces = chunks.map((chunk) => redactor.push(chunk));
  pieces.push(redactor.end());
  return { pieces, joined: pieces.join("") };
}

/** `text` in pieces of `size` characters. */
function splitEvery(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}

/** `text` cut at the given (sorted, deduplicated) positions. */
function cut(text: string, points: readonly number[]): string[] {
  const sorted = [...new Set(points.map((point) => point % (text.length + 1)))].sort(
    (a, b) => a - b,
  );
  const chunks: string[] = [];
  let start = 0;
  for (const point of sorted) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks;
}

const alnum = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    minLength: min,
    maxLength: max,
  });

/** One secret of each kind: the text to plant and the value that must not come back. */
const planted = fc.oneof(
  alnum(12, 30).map((token) => ({ text: `Authorization: Bearer ${token}`, value: token })),
  // A key is random: a digit somewhere in it (words joined by hyphens after sk- are no key).
  fc
    .tuple(alnum(11, 29), fc.nat(), fc.constantFrom(..."0123456789"))
    .map(([token, at, digit]) => {
      const index = at % (token.length + 1);
      return `${token.slice(0, index)}${digit}${token.slice(index)}`;
    })
    .map((token) => ({ text: `sk-proj-${token}`, value: token })),
  alnum(12, 30).map((token) => ({ text: `https://api.test/v1?key=${token}`, value: token })),
  alnum(24, 30).map((token) => ({ text: `AIza${token}`, value: token })),
  fc.constant({ text: KEY, value: KEY }),
);

const filler = fc.array(
  fc.constantFrom("the", "model", "wrote", "files", "42", "ok.", "\n", "spans", "a", "haze", "x"),
  { maxLength: 40 },
);

describe("createStreamRedactor", () => {
  it("hides a secret of each kind planted anywhere and split anywhere (property)", () => {
    fc.assert(
      fc.property(
        filler,
        filler,
        planted,
        fc.array(fc.nat(), { maxLength: 12 }),
        (before, after, secret, points) => {
          const text = [...before, secret.text, ...after].join(" ");
          const { joined } = streamed(cut(text, points));
          expect(joined).not.toContain(secret.value);
          // The same text as redacting it whole: nothing is lost or doubled at the cuts.
          expect(joined).toBe(redactSecrets(text, [KEY]));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("lets nothing of two overlapping configured keys out, whole or streamed, split anywhere (property)", () => {
    // Two values sharing a run of text (`…gh12` + `gh12…`), one inside the other, or one
    // overlapping itself: written together they are one secret, and all of it goes.
    const overlapping = alnum(10, 24).chain((first) =>
      fc.oneof(
        fc
          .tuple(fc.integer({ min: 1, max: first.length - 1 }), alnum(1, 12))
          .filter(([from, tail]) => first.length - from + tail.length >= 8)
          .map(([from, tail]) => ({
            values: [first, first.slice(from) + tail],
            written: first + tail,
          })),
        fc.tuple(fc.nat(), fc.integer({ min: 8, max: 10 })).map(([at, length]) => {
          const from = at % (first.length - length + 1);
          return { values: [first, first.slice(from, from + length)], written: first };
        }),
        // A value with a period (`abcabcab`), written so that its places overlap.
        fc
          .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }))
          .map(([period, more]) => {
            const repeated = first.slice(0, period).repeat(40);
            const value = repeated.slice(0, 8);
            return { values: [value], written: repeated.slice(0, 8 + more * period) };
          }),
      ),
    );
    fc.assert(
      fc.property(
        filler,
        filler,
        overlapping,
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (before, after, secret, reversed, points) => {
          const values = reversed ? [...secret.values].reverse() : secret.values;
          const text = [...before, secret.written, ...after].join(" ");
          const whole = redactSecrets(text, values);
          expect(whole).toBe([...before, REDACTED, ...after].join(" "));
          expect(streamed(cut(text, points), values).joined).toBe(whole);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("lets nothing of a key out that overlaps the end of another held whole", () => {
    const first = "abcdefgh12";
    const second = "gh12zzzzzz";
    const text = `x ${first}zzzzzz y`;
    expect(redactSecrets(text, [first, second])).toBe(`x ${REDACTED} y`);
    expect(redactSecrets(text, [second, first])).toBe(`x ${REDACTED} y`);
    // No whitespace around it: the word holds nothing back, only the values do.
    const glued = `x:${first}zzzzzz:y`;
    expect(streamed([`x:${first}`, "zzzzzz:y"], [first, second]).joined).toBe(`x:${REDACTED}:y`);
    expect(streamed(splitEvery(glued, 1), [second, first]).joined).toBe(`x:${REDACTED}:y`);
  });

  it("never lets go of the start of a configured value with spaces held whole at the end", () => {
    const value = "open sesame 12345";
    expect(streamed([`say ${value}`, " now"], [value]).joined).toBe(`say ${REDACTED} now`);
  });

  it("hides a key inside a run without whitespace longer than what it holds (minified JSON), split anywhere (property)", () => {
    const pad = (length: number) =>
      `"x":"${"ab1,".repeat(Math.ceil(length / 4)).slice(0, length)}",`;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 0, max: 6000 }),
        fc.oneof(
          fc.constant({
            text: '"apiKey":"sk-proj-abcdefghijklmnopqrstuvwxyz12345"',
            value: "abcdefghijklmnop",
          }),
          fc.constant({ text: '"password":"hunter2-but-longer-9"', value: "hunter2" }),
          fc.constant({ text: `"k":"${KEY}"`, value: KEY }),
        ),
        // Pieces of a token or more (each push looks back over what is held: 1-character
        // pieces of 12 KB made this test slow, not wrong).
        fc.integer({ min: 3, max: 64 }),
        (before, after, secret, size) => {
          const text = `{${pad(before)}${secret.text},${pad(after)}}`;
          const chunks: string[] = [];
          for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
          const { joined } = streamed(chunks);
          expect(joined).not.toContain(secret.value);
          // Nothing else changes: the text around the secret goes out as it came.
          expect(joined.startsWith(text.slice(0, Math.min(before, 100)))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("hides a JWT longer than a kilobyte inside a run without whitespace, split anywhere (property)", () => {
    const segment = (length: number) => "Ab9_-".repeat(Math.ceil(length / 5)).slice(0, length);
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 3000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 3, max: 64 }),
        (claims, before, size) => {
          const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${segment(claims)}.${segment(43)}`;
          const text = `{"pad":"${"ab1,".repeat(before / 4)}","token":"${jwt}","more":"${"cd2,".repeat(400)}"}`;
          const chunks: string[] = [];
          for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
          const { joined } = streamed(chunks);
          // Neither half of the claims may go out: each is most of the token.
          expect(joined).not.toContain(segment(claims).slice(0, 200));
          expect(joined).not.toContain(segment(claims).slice(-200));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("hides a JWT of up to 12 KB still being written when the run passes what it holds", () => {
    const segment = (length: number) => "Ab9_-".repeat(Math.ceil(length / 5)).slice(0, length);
    for (const claims of [4_200, 6_000, 12_000])
      for (const size of [1, 16, 64, 1024]) {
        const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJ${segment(claims)}.${segment(43)}`;
        const text = `{"id_token":"${jwt}"} done`;
        const chunks: string[] = [];
        for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
        const { joined } = streamed(chunks, []);
        expect(joined).toBe(redactSecrets(text));
        expect(joined).not.toContain("eyJhbGci");
      }
  });

  it("gives the same text as redacting it whole with any run of spaces after a credential's name (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Authorization: Bearer", "password:", "Basic", "api_key ="),
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 1, max: 64 }),
        (name, spaces, size) => {
          const text = `${name}${" ".repeat(spaces)}Qm9iOnMzY3JldFBhc3M9 ok`;
          const chunks: string[] = [];
          for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
          expect(streamed(chunks, []).joined).toBe(redactSecrets(text));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("never cuts a configured value that starts inside another secret before a forced cut", () => {
    const value = "conf1gValue_xai_AB";
    const text = `${"z".repeat(100)},${value}${"C".repeat(5000)} end`;
    const { joined } = streamed([...text], [value]);
    expect(joined).not.toContain("conf1gValue");
  });

  it("holds no more than about 16 KB of a secret longer than that, whatever the chunk", () => {
    const redactor = createStreamRedactor([]);
    // A megabyte in one chunk: all but the last few KB goes at once (redacted), so what
    // follows streams instead of waiting behind a megabyte held.
    let out = redactor.push(`z?key=${"a".repeat(1_000_000)}`);
    for (let index = 0; index < 1000; index++) out += redactor.push(" word word ");
    expect(out.startsWith(`z?key=${REDACTED} word word`)).toBe(true);
    // Nothing of its tail either: the characters that went on with it were swallowed.
    expect(out).not.toContain("aaaa");
  });

  it("never lets a secret longer than it holds out, even its tail, split anywhere (property)", () => {
    const body = (length: number, seed: number) => {
      const letters = "AbC9dEf1GhIj2KlMn3OpQr4StUv5WxYz0";
      let text = "";
      for (let index = 0; index < length; index++)
        text += letters.charAt((index * 7 + seed) % letters.length);
      return text;
    };
    // Each secret's value is longer than the 16 KB held for one still growing.
    const longSecret = fc.oneof(
      fc.constant((value: string) => `https://api.test/v1?key=${value}&alt=sse`),
      fc.constant((value: string) => `Authorization: Bearer ${value}`),
      fc.constant((value: string) => `Authorization: Bearer ${value}... and on.`),
      // Dots a credential's value ends before, or goes on after.
      fc.constant((value: string) => `Authorization: Bearer ${value}...x and on.`),
      fc.constant((value: string) => `password=${value}..`),
      fc.constant((value: string) => `{"password":"${value}","user":"x"}`),
      fc.constant((value: string) => `sk-proj-${value} and more`),
      fc.constant((value: string) => `"id_token":"eyJhbGciOiJIUzI1NiJ9.eyJ${value}.sig_nature_x9"`),
      fc.constant((value: string) => `"t":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${value}".rest`),
    );
    fc.assert(
      fc.property(
        longSecret,
        fc.integer({ min: 16_500, max: 40_000 }),
        fc.integer({ min: 0, max: 40 }),
        filler,
        fc.oneof(
          fc.array(fc.nat(), { maxLength: 30 }).map((points) => ({ points, size: 0 })),
          fc.integer({ min: 1, max: 700 }).map((size) => ({ points: [], size })),
        ),
        (write, length, seed, words, split) => {
          const value = body(length, seed);
          const text = `${words.join(" ")} ${write(value)} ${words.join(" ")} done`;
          const chunks: string[] = [];
          if (split.size > 0)
            for (let at = 0; at < text.length; at += split.size)
              chunks.push(text.slice(at, at + split.size));
          else chunks.push(...cut(text, split.points));
          const { joined } = streamed(chunks, []);
          // No piece of the secret goes out: not its head, not its tail.
          expect(joined).not.toContain(value.slice(0, 64));
          expect(joined).not.toContain(value.slice(-64));
          expect(joined).not.toContain(value.slice(length >> 1, (length >> 1) + 64));
          // And the same text as redacting it whole.
          expect(joined).toBe(redactSecrets(text));
        },
      ),
      { numRuns: 120 },
    );
  });

  it("lets no configured key out glued before or after a 5–40 KB secret-shaped run of each kind, split anywhere (property)", () => {
    const body = (length: number, seed: number) => {
      const letters = "AbC9dEf1GhIj2KlMn3OpQr4StUv5WxYz0";
      let text = "";
      for (let index = 0; index < length; index++)
        text += letters.charAt((index * 7 + seed) % letters.length);
      return text;
    };
    // Each writes a run no pattern's match ends inside: it goes on as long as the run.
    const kinds = [
      (run: string) => `Authorization: Bearer x1${run}`,
      (run: string) => `password=${run}`,
      (run: string) => `https://x.test/v1?key=${run}`,
      (run: string) => `sk-proj-1${run}`,
      (run: string) => `AIza${run}`,
      (run: string) => `ghp_${run}`,
      (run: string) => `sk_live_${run}`,
      (run: string) => `xoxb-${run}`,
      (run: string) => `eyJhbGciOiJIUzI1NiJ9.eyJ${run}.sig_nature_x9`,
      (run: string) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${run}`,
    ];
    // "ANOTHER" is a second configured value, so the values' order is tried too.
    const ANOTHER = "cfg_Second0Value";
    // A third that overlaps the end of KEY: written after KEY, the two are one secret.
    const OVERLAP = `${KEY.slice(-8)}Tail0x12`;
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.integer({ min: 5_000, max: 40_000 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom("", KEY, ANOTHER),
        fc.constantFrom(
          KEY,
          `..${KEY}`,
          `${KEY}${KEY}`,
          `${ANOTHER}${KEY}`,
          `${KEY}.`,
          `${KEY}Tail0x12`,
          "",
        ),
        fc.constantFrom(" done", "'s end", ";(x)", ". Next", "&b=1 ok", ""),
        fc.oneof(
          fc.integer({ min: 1, max: 8000 }).map((size) => ({ size, points: [] })),
          fc.array(fc.nat(), { maxLength: 30 }).map((points) => ({ size: 0, points })),
        ),
        (write, length, seed, before, after, end, split) => {
          const run = body(length, seed);
          const text = `the ${before}${write(run)}${after}${end} more words`;
          const chunks = split.size > 0 ? splitEvery(text, split.size) : cut(text, split.points);
          const { joined } = streamed(chunks, [KEY, ANOTHER, OVERLAP]);
          expect(joined).not.toContain(KEY.slice(4));
          expect(joined).not.toContain(ANOTHER.slice(4));
          expect(joined).not.toContain("Tail0x12");
          expect(joined).not.toContain(run.slice(-64));
          // And nothing else is lost: the same text as redacting it whole.
          expect(joined).toBe(redactSecrets(text, [KEY, ANOTHER, OVERLAP]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("ends a long token's swallowed tail where a configured key glued to it starts", () => {
    const key = "sk-ant-api03-Zq7Xw9Kp2Lm4Nv6Bc8Df0Gh1Jk3Qr5St7Uv9Wx";
    const text = `token: ghp_${"A".repeat(20_000)}${key} ok`;
    const { joined } = streamed(splitEvery(text, 20), [key]);
    expect(joined).toBe(`token: ${REDACTED}${REDACTED} ok`);
    expect(joined).toBe(redactSecrets(text, [key]));
  });

  it("swallows only what the match redacting it whole makes goes on with: not a later pattern's inside it (property)", () => {
    fc.assert(
      fc.property(
        // A bearer token holding `?key=`: the bearer pattern runs first and ends at `;`, so the
        // key parameter's match (which takes `;`) is never made.
        fc.constantFrom("Bearer abc1?key=", "Authorization: Bearer x1&token=", "password=ab?key="),
        fc.integer({ min: 5_000, max: 40_000 }),
        fc.constantFrom(";(not,part)of-it next", ",x", "(y) z", ";", "'s end"),
        fc.integer({ min: 1, max: 8000 }),
        (start, length, end, size) => {
          const text = `see ${start}${"A".repeat(length)}${end} done`;
          expect(streamed(splitEvery(text, size), []).joined).toBe(redactSecrets(text));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("lets a long eyJ run with no second part go as it came: Base64 JSON, no JWT header", () => {
    // A data URI's Base64 JSON starts `eyJ` too; a JWT's first part (its header) is never
    // 16 KB, so past that, nothing held says it is a secret, and redacting it whole agrees.
    const claims = "Ab9_-".repeat(5_000);
    const text = `{"blob":"eyJ${claims}${claims}"}. Open it done`;
    for (const size of [7, 20, 1000, 4999, 20_000]) {
      const { joined } = streamed(splitEvery(text, size), []);
      expect(joined).toBe(redactSecrets(text));
      expect(joined).toBe(text);
    }
  });

  it("swallows the tail of a JWT past what it holds once its second part started, giving back the dots it ends in", () => {
    // Undecidable without holding it all: `eyJ….eyJ…` may become a JWT or not. It is redacted,
    // not let out in two halves; a dot after it that no third part follows is text.
    const claims = "Ab9_-".repeat(5_000);
    const { joined } = streamed([`{"t":"eyJhbGciOiJIUzI1NiJ9.eyJ${claims}`, `${claims}. Next`], []);
    expect(joined).toBe(`{"t":"${REDACTED}. Next`);
  });

  it("lets a long sk- run that is no key go as it came (nothing held says it is one)", () => {
    const words = "sk-".concat("folding-cube-".repeat(2_000));
    const { joined } = streamed([words.slice(0, 9_000), words.slice(9_000), " done"], []);
    expect(joined).toBe(redactSecrets(`${words} done`));
    expect(joined).toBe(`${words} done`);
  });

  it("gives the same text as redacting it whole when trigger words come thick (property)", () => {
    const words = fc.array(
      fc.constantFrom("token", "key", "the", "secret", "Bearer", "pass", "x", "\n", "eyJ", "ok"),
      { maxLength: 3000 },
    );
    fc.assert(
      fc.property(words, planted, fc.integer({ min: 1, max: 40 }), (before, secret, size) => {
        const text = [...before, secret.text, ...before.slice(0, 50)].join(" ");
        const chunks: string[] = [];
        for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
        const { joined } = streamed(chunks);
        expect(joined).not.toContain(secret.value);
        expect(joined).toBe(redactSecrets(text, [KEY]));
      }),
      { numRuns: 80 },
    );
  });

  it("catches a configured key written one character per chunk", () => {
    const { pieces, joined } = streamed([..."echo ", ...KEY, ..." done"]);
    expect(joined).toBe(`echo ${REDACTED} done`);
    expect(pieces.every((piece) => !piece.includes(KEY.slice(0, 8)))).toBe(true);
  });

  it("holds back nothing when no tail could start a secret", () => {
    expect(streamed(["hello there ", "world of "]).pieces).toEqual([
      "hello there ",
      "world of ",
      "",
    ]);
    // "…ke" could still become "key": held until the next chunk says otherwise.
    expect(streamed(["see the ke", "ttle boil "]).pieces).toEqual(["see the ", "kettle boil ", ""]);
  });
});

describe("createStreamRedactor: when released text arrived", () => {
  /** Each push's output with `releasedAt`, then the end's; pushes are `[at, text]`. */
  function timed(pushes: readonly (readonly [number, string])[], secrets: readonly string[] = []) {
    const redactor = createStreamRedactor(secrets);
    const out = pushes.map(([at, text]) => [redactor.push(text, at), redactor.releasedAt] as const);
    out.push([redactor.end(), redactor.releasedAt]);
    return out.filter(([text]) => text !== "");
  }

  it("times what it lets go of by its last character's arrival: no text before it came", () => {
    // The model sends a key's start at 10 ms, stalls, and goes on at 900 ms.
    expect(
      timed([
        [10, "Here it is: sk-proj-abc"],
        [20, "def0123456789xyz"],
        [900, " and the rest follows."],
      ]),
    ).toEqual([
      ["Here it is: ", 10],
      [`${REDACTED} and the rest `, 900],
      ["follows.", 900],
    ]);
  });

  it("a word held over several pieces goes out with the piece that ends it", () => {
    expect(
      timed([
        [1, "hel"],
        [2, "lo wor"],
        [3, "ld and"],
        [4, " more"],
      ]),
    ).toEqual([
      ["hello ", 2],
      ["world ", 3],
      ["and ", 4],
      ["more", 4],
    ]);
  });

  it("old text let go of alone (a word past the longest held) is timed by the piece held last", () => {
    const redactor = createStreamRedactor([]);
    expect(redactor.push("a".repeat(4000), 1)).toBe("");
    // Less than a quarter of what is held: the cut is not worked out again yet.
    expect(redactor.push("b".repeat(200), 2)).toBe("");
    // One word of 5,200 characters: only its first 1,104 go, all of them from the first piece,
    // timed by the piece held last before this one.
    expect(redactor.push("c".repeat(1000), 3)).toBe("a".repeat(1104));
    expect(redactor.releasedAt).toBe(2);
  });

  it("what is held at the end keeps when it came, and so does old text let go of alone", () => {
    const redactor = createStreamRedactor([KEY]);
    expect(redactor.push("echo wsk-Conf", 5)).toBe("echo ");
    expect(redactor.releasedAt).toBe(5);
    // Nothing new let go of: what was held goes out with its own time.
    expect(redactor.push("", 7)).toBe("");
    expect(redactor.end()).toBe("wsk-Conf");
    expect(redactor.releasedAt).toBe(5);
  });
});

describe("redactingStreamTurn", () => {
  it("keeps a key split over chunks out of every text part, finish after the rest", async () => {
    const parts: TurnPart[] = [
      { type: "text", text: "<respond>your key is wsk-Conf" },
      { type: "text", text: "igured0Key0" },
      { type: "text", text: "Value42 ok</respond>" },
      { type: "finish", finishReason: "stop" },
    ];
    const source: StreamTurn = async function* () {
      yield* parts;
    };
    const out: TurnPart[] = [];
    for await (const part of redactingStreamTurn(source, [KEY])({} as never)) out.push(part);
    const texts = out.flatMap((part) => (part.type === "text" ? [part.text] : []));
    expect(texts.join("")).toBe(`<respond>your key is ${REDACTED} ok</respond>`);
    for (const text of texts)
      expect(KEY.includes(text.trim()) && text.trim().length > 3).toBe(false);
    expect(out.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
  });

  it("gives what it held to the turn's end the time it came, not the end's", async () => {
    let clock = 10;
    // A key's start at 10, a stall until 900, the last word at 900, the finish at 5,000.
    const source: StreamTurn = async function* () {
      yield { type: "text", text: "Here it is: sk-proj-abc" };
      clock = 20;
      yield { type: "text", text: "def0123456789xyz" };
      clock = 900;
      yield { type: "text", text: " and the rest follows." };
      clock = 5_000;
      yield { type: "finish", finishReason: "stop" };
    };
    const out: TurnPart[] = [];
    const input = { now: () => clock } as Parameters<StreamTurn>[0];
    for await (const part of redactingStreamTurn(source, [])(input)) out.push(part);
    // Parts let go of as they came carry no time (the loop notes it); the end's rest does.
    expect(out.filter((part) => part.type === "text")).toEqual([
      { type: "text", text: "Here it is: " },
      { type: "text", text: `${REDACTED} and the rest ` },
      { type: "text", text: "follows.", at: 900 },
    ]);
  });
});
