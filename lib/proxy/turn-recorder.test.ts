import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { splitAt } from "../protocol/testing";
import type { AnswerDelta } from "./answer-decoder";
import { createAnswerDecoder } from "./answer-decoder";
import type { DialectChoice } from "./dialect-choice";
import { MAX_CHUNKS_PER_CALL, TurnRecorder, type TurnRecorderOptions } from "./turn-recorder";

function record(deltas: AnswerDelta[], options: Partial<TurnRecorderOptions> = {}) {
  const records: TranscriptRecord[] = [];
  const choices: DialectChoice[] = [];
  const recorder = new TurnRecorder({
    turn: 2,
    request: {
      kind: "request",
      turn: 2,
      provider: "openai",
      model: "m",
      messages: [],
      settings: {},
    },
    requestText: "",
    elapsed: () => 1,
    clock: () => 0,
    maxChars: 10_000,
    emit: (batch) => records.push(...batch),
    onChoice: (choice) => choices.push(choice),
    ...options,
  });
  for (const delta of deltas) recorder.push([delta]);
  recorder.end();
  const chunks = records.flatMap((r) => (r.kind === "chunk" ? [r.text] : [])).join("");
  const events = records.flatMap((r) => (r.kind === "event" ? [r.event] : []));
  return { records, choices, chunks, events };
}

const text = (value: string): AnswerDelta => ({ kind: "text", text: value });
const think = (value: string): AnswerDelta => ({ kind: "think", text: value });

describe("TurnRecorder", () => {
  it("holds text until a marker decides, then emits the request first and parses", () => {
    const { records, choices } = record([
      text("Sure. "),
      text("<exec"),
      text('ute>[{"name":"list","args":{}}]</execute>'),
    ]);
    expect(choices).toMatchObject([{ dialect: "xml", by: "detected" }]);
    expect(records[0]).toMatchObject({
      kind: "request",
      turn: 2,
      settings: { capture: { dialect: "xml", parser: "xml", chosenBy: "detected" } },
    });
    expect(
      records.filter((r) => r.kind === "chunk").map((r) => (r.kind === "chunk" ? r.text : "")),
    ).toEqual(["Sure. ", '<execute>[{"name":"list","args":{}}]</execute>']);
  });

  it("a plain-text answer streams: decided a short while after its first plain character, not at its end", () => {
    const records: TranscriptRecord[] = [];
    const recorder = new TurnRecorder({
      turn: 1,
      request: { kind: "request", turn: 1, provider: "p", model: "m", messages: [], settings: {} },
      requestText: "You are a helpful assistant.",
      elapsed: () => 1,
      clock: () => 0,
      maxChars: 10_000,
      emit: (batch) => records.push(...batch),
    });
    recorder.push([text("  ")]);
    expect(records).toEqual([]);
    recorder.push([text("Hello")]);
    recorder.push([text(" there, how can I help you today with your code?")]);
    // Held a little longer for a marker of its own (the request names no dialect).
    expect(records).toEqual([]);
    for (let sentence = 0; sentence < 12; sentence++)
      recorder.push([text(" Here is one more sentence of a friendly answer.")]);
    // Before the answer ends: the request, its text so far and a respond event are out.
    expect(records[0]).toMatchObject({
      kind: "request",
      settings: { capture: { dialect: "xml", chosenBy: "fallback" } },
    });
    expect(JSON.stringify(records[0])).toContain("plain text (offset 2)");
    const shown = records.flatMap((r) => (r.kind === "chunk" ? [r.text] : [])).join("");
    expect(shown).toContain("Hello there");
    expect(records.some((r) => r.kind === "event" && r.event.type === "respond")).toBe(true);
  });

  it("a sentence before the answer's own marker does not hide the marker", () => {
    // A Hermes model behind a server whose chat template teaches <tool_call> (not the request).
    const hermes = record(
      [
        text("I'll check the weather.\n"),
        text('<tool_call>{"name": "weather", "arguments": {}}</tool_call>'),
      ],
      { requestText: "You are a helpful assistant.\nWhat's the weather in Paris?" },
    );
    expect(hermes.choices[0]).toMatchObject({ dialect: "hermes", by: "detected" });
    expect(hermes.events.some((event) => event.type === "call")).toBe(true);
    // A request that describes its format after 16 K of other instructions still decides.
    const delimiter = record([text("**Plan**\n§call: list {}")], {
      requestText: `${"Be careful. ".repeat(1_500)}Write §think: then §call: lines.`,
    });
    expect(delimiter.choices[0]).toMatchObject({ dialect: "delimiter", by: "detected" });
  });

  it("plain text after a leading think block decides by the request's markers", () => {
    const { choices } = record([text("<think>hm</think>\nThe answer is 4.")], {
      requestText: "Call tools in <tool_call>{…}</tool_call>",
    });
    expect(choices[0]).toMatchObject({ dialect: "hermes", by: "detected" });
    expect(choices[0]?.reason).toContain("begins with plain text");
  });

  it("redacts a key the model writes across deltas, in chunks and in events", () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const secret = "hunter2-but-much-longer-value";
    for (const cut of [3, 8, 20, 30]) {
      const answer = `<respond>Your key is ${key} and the header was ${secret}.</respond>`;
      const at = answer.indexOf("sk-") + cut;
      const at2 = answer.indexOf("hunter2") + Math.min(cut, 10);
      const { chunks, events } = record(splitAt(answer, [at, at2]).map(text), {
        chosen: { dialect: "xml", by: "header", reason: "named" },
        secrets: [secret],
      });
      expect(chunks).not.toContain("abcdefghijklmnop");
      expect(chunks).not.toContain("hunter2");
      expect(chunks).toContain("[redacted]");
      expect(JSON.stringify(events)).not.toContain("abcdefghijklmnop");
      expect(JSON.stringify(events)).not.toContain("hunter2");
    }
  });

  it("a chunk is timed by its last character's arrival; what is held at the end by its own", () => {
    let now = 0;
    const times = [10, 20, 900];
    const records: TranscriptRecord[] = [];
    const turn = new TurnRecorder({
      turn: 1,
      request: { kind: "request", turn: 1, provider: "p", model: "m", messages: [], settings: {} },
      requestText: "",
      elapsed: () => now,
      clock: () => 0,
      maxChars: 10_000,
      chosen: { dialect: "xml", by: "header", reason: "named" },
      emit: (batch) => records.push(...batch),
    });
    // A key's start at 10 ms, its rest at 20 ms, then a stall until 900 ms; the answer ends at 950.
    const deltas = ["<respond>Here it is: sk-proj-abc", "def0123456789xyz", " and the rest of it."];
    for (const [index, delta] of deltas.entries()) {
      now = times[index] as number;
      turn.push([text(delta)]);
    }
    now = 950;
    turn.end();
    const chunks = records.flatMap((r) => (r.kind === "chunk" ? [[r.text, r.t]] : []));
    // Before, what was held at the end went out with the end's time (950).
    expect(chunks).toEqual([
      ["<respond>Here it is: ", 10],
      ["[redacted] and the rest of ", 900],
      ["it.", 900],
    ]);
  });

  it("marker-less answers fall back on the request's markers, then on xml, and say so", () => {
    const fromRequest = record([text("Done.")], { requestText: "Write §think: then §call:" });
    expect(fromRequest.choices[0]).toMatchObject({ dialect: "delimiter", by: "detected" });
    expect(fromRequest.choices[0]?.reason).toContain("the request does");
    const none = record([text("Done.")]);
    expect(none.choices[0]).toMatchObject({ dialect: "xml", by: "fallback" });
  });

  it("reasoning deltas become think text in the dialect's markers, on any split", () => {
    const answer = "<tool_call>{}</tool_call>";
    for (const cut of [1, 5, 12]) {
      const deltas = [think("Plan "), think("it."), ...splitAt(answer, [cut]).map(text)];
      const { chunks } = record(deltas, {
        chosen: { dialect: "action", by: "header", reason: "named" },
      });
      expect(chunks).toBe(`<thought>Plan it.</thought>\n${answer}`);
    }
    const delimiter = record([think("Plan."), text("Hello.")], {
      chosen: { dialect: "delimiter", by: "header", reason: "named" },
    });
    expect(delimiter.chunks).toBe("§think: Plan.\n§respond: Hello.");
    const kinds = new Map(delimiter.events.map((event) => [event.id, event.type]));
    expect([...kinds.values()]).toEqual(["think", "respond"]);
  });

  it("reasoning before any text shows at once when the request names a dialect, else is held only so long", () => {
    const long = "r".repeat(40_000);
    const recorderFor = (requestText: string, records: TranscriptRecord[]) =>
      new TurnRecorder({
        turn: 0,
        request: {
          kind: "request",
          turn: 0,
          provider: "p",
          model: "m",
          messages: [],
          settings: {},
        },
        requestText,
        elapsed: () => 0,
        clock: () => 0,
        maxChars: 1_000_000,
        emit: (batch) => records.push(...batch),
      });
    // The request teaches hermes: the first reasoning delta decides, and streams as think text.
    const taught: TranscriptRecord[] = [];
    recorderFor("Use <tool_call> tags.", taught).push([think("Let me see")]);
    expect(taught[0]).toMatchObject({
      kind: "request",
      settings: { capture: { dialect: "hermes", chosenBy: "detected" } },
    });
    expect(JSON.stringify(taught[0])).toContain("begins with reasoning");
    expect(taught.some((record) => record.kind === "chunk")).toBe(true);
    // No marker in the request: the answer's own may still come, so reasoning is held, but
    // only so long.
    const plain: TranscriptRecord[] = [];
    const recorder = recorderFor("You are helpful.", plain);
    recorder.push([think(long)]);
    expect(plain).toHaveLength(0);
    recorder.push([think(long)]);
    expect(plain[0]).toMatchObject({
      kind: "request",
      settings: { capture: { dialect: "xml", chosenBy: "fallback" } },
    });
    expect(plain.some((record) => record.kind === "chunk")).toBe(true);
  });

  it("hermes parses with the xml parser until a hermes parser exists, and the choice says which", () => {
    const { choices } = record([text("<tool_call>{}</tool_call>")]);
    expect(choices[0]?.dialect).toBe("hermes");
    expect(["hermes", "xml"]).toContain(choices[0]?.parser);
  });

  it("stops recording at the cap and says so in an error record", () => {
    const { chunks, events } = record(
      [text("<respond>"), text("x".repeat(50)), text("y".repeat(50))],
      {
        maxChars: 40,
      },
    );
    expect(chunks).toHaveLength(40);
    const errors = events.filter((event) => event.type === "error" && event.code === "internal");
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors)).toContain("Recording stopped after 40 characters");
  });

  it("stops recording after as many chunks as a call may have, and says so once", () => {
    const deltas = [text("<respond>")];
    // Words that end: the key redactor holds back nothing of them, so each delta is a chunk.
    for (let index = 0; index < MAX_CHUNKS_PER_CALL + 50; index++) deltas.push(text("x "));
    // Named, so nothing is held back for detection: each delta is its own chunk.
    const { records, events } = record(deltas, {
      maxChars: 10 * MAX_CHUNKS_PER_CALL,
      chosen: { dialect: "xml", by: "header", reason: "named" },
    });
    expect(records.filter((r) => r.kind === "chunk")).toHaveLength(MAX_CHUNKS_PER_CALL);
    const errors = events.filter((event) => event.type === "error" && event.code === "internal");
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors)).toContain(
      `Recording stopped after ${MAX_CHUNKS_PER_CALL} chunks`,
    );
  });

  it("a problem in the stream is an error record, and the turn goes on", () => {
    const { events } = record([
      text("<respond>Hi"),
      { kind: "problem", message: "bad frame" },
      text("</respond>"),
    ]);
    expect(events.map((event) => event.type)).toContain("error");
    expect(events.filter((event) => event.type === "respond").length).toBeGreaterThan(0);
  });
});

describe("answer decoder", () => {
  const bytes = (value: string) => new TextEncoder().encode(value);

  it("reads OpenAI SSE split anywhere, UTF-8 included", () => {
    const sse =
      'data: {"choices":[{"delta":{"reasoning_content":"hm"}}]}\n\n' +
      'data: {"choices":[{"delta":{"content":"héllo ✨"}}]}\n\ndata: [DONE]\n\n';
    const encoded = bytes(sse);
    for (let cut = 1; cut < encoded.length; cut += 7) {
      const decoder = createAnswerDecoder("openai", true, 1000);
      const deltas = [
        ...decoder.push(encoded.slice(0, cut)),
        ...decoder.push(encoded.slice(cut)),
        ...decoder.end(),
      ];
      expect(deltas).toEqual([think("hm"), text("héllo ✨")]);
    }
  });

  it("reads Anthropic thinking and text deltas, and error events", () => {
    const decoder = createAnswerDecoder("anthropic", true, 1000);
    const frames =
      'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"a"}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"b"}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"message":"overloaded"}}\n\n';
    expect([...decoder.push(bytes(frames)), ...decoder.end()]).toEqual([
      think("a"),
      text("b"),
      { kind: "problem", message: "The upstream sent an error: overloaded" },
    ]);
  });

  it("stops reading an SSE event that never ends past the cap, and says so once", () => {
    const decoder = createAnswerDecoder("openai", true, 1000);
    const deltas = [...decoder.push(bytes('data: {"choices":[{"delta":{"content":"'))];
    for (let index = 0; index < 20; index++) deltas.push(...decoder.push(bytes("x".repeat(100))));
    // Whatever comes after is not read: the parser holds nothing any more.
    deltas.push(
      ...decoder.push(bytes('"}}]}\n\ndata: {"choices":[{"delta":{"content":"late"}}]}\n\n')),
    );
    deltas.push(...decoder.end());
    expect(deltas).toEqual([
      {
        kind: "problem",
        message:
          "An SSE event went on past 1000 characters without ending; the rest of the answer reached the client but was not read.",
      },
    ]);
  });

  it("reads any number of SSE events whose sum is far over the cap, keep-alive comments too", () => {
    const decoder = createAnswerDecoder("openai", true, 1000);
    const deltas: AnswerDelta[] = [];
    for (let index = 0; index < 200; index++) {
      const frame = `: keep-alive\n\ndata: {"choices":[{"delta":{"content":"${index} "}}]}\n\n`;
      // Split mid-frame, so a boundary is not always at a chunk's end.
      deltas.push(
        ...decoder.push(bytes(frame.slice(0, 20))),
        ...decoder.push(bytes(frame.slice(20))),
      );
    }
    deltas.push(...decoder.end());
    expect(deltas).toHaveLength(200);
    expect(deltas.every((delta) => delta.kind === "text")).toBe(true);
  });

  it("reads a whole JSON answer, and refuses one over the cap without keeping it", () => {
    const body = JSON.stringify({ choices: [{ message: { content: "hi" } }] });
    const decoder = createAnswerDecoder("openai", false, 1000);
    decoder.push(bytes(body));
    expect(decoder.end()).toEqual([text("hi")]);
    const small = createAnswerDecoder("openai", false, 10);
    small.push(bytes(body));
    expect(small.end()[0]).toMatchObject({ kind: "problem" });
  });
});

describe("TurnRecorder usage", () => {
  const sse = (frames: unknown[]) =>
    new TextEncoder().encode(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(""));

  it("records the provider's usage as the turn's metric (Anthropic: input at start, output at the end)", () => {
    const decoder = createAnswerDecoder("anthropic", true, 1 << 20);
    const deltas = decoder.push(
      sse([
        { type: "message_start", message: { usage: { input_tokens: 120, output_tokens: 1 } } },
        {
          type: "content_block_delta",
          delta: { type: "text_delta", text: "<respond>hi</respond>" },
        },
        { type: "message_delta", usage: { output_tokens: 9 } },
      ]),
    );
    let now = 0;
    const { events } = record(deltas, { elapsed: () => (now += 10) });
    const metric = events.find((event) => event.type === "metric");
    expect(metric).toMatchObject({
      turn: 2,
      tokenSource: "provider",
      step: { input: 120, output: 9, ttftMs: 10 },
    });
  });

  it("reads OpenAI's usage from a stream's last frame and from a whole answer", () => {
    const stream = createAnswerDecoder("openai", true, 1 << 20).push(
      sse([
        { choices: [{ delta: { content: "hi" } }] },
        { choices: [], usage: { prompt_tokens: 7, completion_tokens: 2 } },
      ]),
    );
    expect(stream).toContainEqual({ kind: "usage", input: 7, output: 2 });
    const whole = createAnswerDecoder("openai", false, 1 << 20);
    whole.push(
      new TextEncoder().encode(
        JSON.stringify({
          choices: [{ message: { content: "hi" } }],
          usage: { prompt_tokens: 5, completion_tokens: 1 },
        }),
      ),
    );
    expect(whole.end()).toContainEqual({ kind: "usage", input: 5, output: 1 });
  });

  it("counts Anthropic's cache reads and writes into the input, and records them", () => {
    const deltas = createAnswerDecoder("anthropic", true, 1 << 20).push(
      sse([
        {
          type: "message_start",
          message: {
            usage: {
              input_tokens: 20,
              cache_read_input_tokens: 1500,
              cache_creation_input_tokens: 300,
              output_tokens: 1,
            },
          },
        },
        { type: "content_block_delta", delta: { type: "text_delta", text: "<end>" } },
        { type: "message_delta", usage: { output_tokens: 4 } },
      ]),
    );
    const metric = record(deltas).events.find((event) => event.type === "metric");
    expect(metric).toMatchObject({
      tokenSource: "provider",
      step: { input: 1820, output: 4, cacheRead: 1500, cacheWrite: 300 },
    });
  });

  it("records which of Anthropic's cache writes were for an hour (priced 2 × input)", () => {
    const deltas = createAnswerDecoder("anthropic", true, 1 << 20).push(
      sse([
        {
          type: "message_start",
          message: {
            usage: {
              input_tokens: 20,
              cache_creation_input_tokens: 1300,
              cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 1000 },
              output_tokens: 1,
            },
          },
        },
        { type: "content_block_delta", delta: { type: "text_delta", text: "<end>" } },
        { type: "message_delta", usage: { output_tokens: 4 } },
      ]),
    );
    const metric = record(deltas).events.find((event) => event.type === "metric");
    expect(metric).toMatchObject({
      step: { input: 1320, output: 4, cacheWrite: 1300, cacheWrite1h: 1000 },
    });
  });

  it("reads OpenAI's cached prompt tokens as a part of the input", () => {
    const deltas = createAnswerDecoder("openai", true, 1 << 20).push(
      sse([
        { choices: [{ delta: { content: "<end>" } }] },
        {
          choices: [],
          usage: {
            prompt_tokens: 2006,
            completion_tokens: 3,
            prompt_tokens_details: { cached_tokens: 1920 },
          },
        },
      ]),
    );
    expect(deltas).toContainEqual({ kind: "usage", input: 2006, output: 3, cacheRead: 1920 });
    const metric = record(deltas).events.find((event) => event.type === "metric");
    expect(metric).toMatchObject({ step: { input: 2006, cacheRead: 1920 } });
    expect(metric?.type === "metric" && metric.step.cacheWrite).toBe(undefined);
  });

  it("does not believe counts past a trillion, nor more cached than was sent", () => {
    const huge = createAnswerDecoder("anthropic", true, 1 << 20).push(
      sse([
        {
          type: "message_start",
          message: {
            usage: {
              input_tokens: 10,
              cache_read_input_tokens: 1.7e308,
              cache_creation_input_tokens: 1.7e308,
            },
          },
        },
      ]),
    );
    expect(huge).toEqual([{ kind: "usage", input: 10 }]);
    const openai = createAnswerDecoder("openai", true, 1 << 20).push(
      sse([
        {
          choices: [],
          usage: {
            prompt_tokens: 10,
            completion_tokens: 1e300,
            prompt_tokens_details: { cached_tokens: 100 },
          },
        },
      ]),
    );
    expect(openai).toEqual([{ kind: "usage", input: 10, cacheRead: 100 }]);
    const metric = record([text("<end>"), ...openai]).events.find((e) => e.type === "metric");
    expect(metric).toMatchObject({ step: { input: 10, cacheRead: 10 } });
  });

  it("keeps no cache counts without a reported input (they are parts of it)", () => {
    const { events } = record([text("<end>"), { kind: "usage", output: 3, cacheRead: 9 }]);
    const metric = events.find((event) => event.type === "metric");
    expect(metric?.type === "metric" && metric.step.cacheRead).toBe(undefined);
  });

  it("writes no metric without usage, and says mixed when only one count came", () => {
    expect(record([text("<respond>hi</respond>")]).events.map((e) => e.type)).not.toContain(
      "metric",
    );
    const { events } = record([text("<respond>hi</respond>"), { kind: "usage", input: 50 }], {
      requestText: "x".repeat(40),
    });
    expect(events.find((event) => event.type === "metric")).toMatchObject({
      tokenSource: "mixed",
      step: { input: 50, output: Math.ceil("<respond>hi</respond>".length / 4) },
    });
  });

  it("ignores usage that is not a count", () => {
    const deltas = createAnswerDecoder("openai", true, 1 << 20).push(
      sse([{ choices: [], usage: { prompt_tokens: -3, completion_tokens: "many" } }]),
    );
    expect(deltas).toEqual([]);
  });
});
