import { describe, expect, it } from "vitest";
import { mergePrices } from "../cost/price-table";
import { formatDuration } from "../metrics/duration";
import { summarizeRecords } from "../metrics/summarize";
import { fileSummaryOf, summaryLine } from "./file-summary";
import { exportJsonl, parseJsonl } from "./jsonl";
import { exportMarkdown } from "./markdown";
import { sampleTranscript } from "./testing";

const LIMITS = { maxBytes: 1 << 24, maxLineBytes: 1 << 24 };

function summaryOfSample() {
  const transcript = sampleTranscript();
  return {
    transcript,
    summary: summarizeRecords(transcript.records, {
      prices: mergePrices(),
      model: transcript.meta.model,
    }),
  };
}

describe("the run summary in exports", () => {
  it("JSONL: the header carries it, and the file still imports", () => {
    const { transcript, summary } = summaryOfSample();
    const text = exportJsonl(transcript, { summary: fileSummaryOf(summary) });
    const header = JSON.parse(text.slice(0, text.indexOf("\n")));
    expect(header.summary).toEqual({
      turns: 3,
      toolCalls: 2,
      errors: 2,
      durationMs: Math.round(summary.durationMs),
      tokensIn: summary.tokensIn,
      tokensOut: summary.tokensOut,
      tokenSource: "mixed",
      costUsd: 0,
    });
    const parsed = parseJsonl(text, LIMITS);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.file.records).toHaveLength(transcript.records.length);
  });

  it("carries prompt-cache counts when the provider reported some, and still imports", () => {
    const { transcript } = summaryOfSample();
    const records = transcript.records.map((record) =>
      record.kind === "event" && record.event.type === "metric"
        ? { ...record, event: { ...record.event, step: { ...record.event.step, cacheRead: 7 } } }
        : record,
    );
    const summary = summarizeRecords(records, {
      prices: mergePrices(),
      model: transcript.meta.model,
    });
    const metrics = records.filter((r) => r.kind === "event" && r.event.type === "metric").length;
    expect(summary.cacheRead).toBe(7 * metrics);
    const text = exportJsonl({ ...transcript, records }, { summary: fileSummaryOf(summary) });
    const header = JSON.parse(text.slice(0, text.indexOf("\n")));
    expect(header.summary).toMatchObject({ cacheRead: 7 * metrics, cacheWrite: 0 });
    expect(parseJsonl(text, LIMITS).ok).toBe(true);
    const markdown = exportMarkdown({ ...transcript, records }, { summary });
    expect(markdown).toContain(
      `tokens ${summary.tokensIn.toLocaleString("en-US")} (${7 * metrics} cached) → `,
    );
  });

  it("JSONL: the cost is given to the price table's precision, not floating point's sum", () => {
    const { summary } = summaryOfSample();
    // Nine turns at $0.006 each, added up as the run summary adds them.
    const usd = Array.from({ length: 9 }, () => 0.006).reduce((total, turn) => total + turn, 0);
    expect(usd).not.toBe(0.054);
    const cost = {
      usd,
      unpriced: [],
      prices: ["shipped" as const],
      tokenSource: "provider" as const,
    };
    expect(fileSummaryOf({ ...summary, cost }).costUsd).toBe(0.054);
    // A cost below the precision is 0, and a large one keeps its cents.
    expect(fileSummaryOf({ ...summary, cost: { ...cost, usd: 4e-11 } }).costUsd).toBe(0);
    expect(fileSummaryOf({ ...summary, cost: { ...cost, usd: 1234.5600000000002 } }).costUsd).toBe(
      1234.56,
    );
  });

  it("JSONL: a malformed summary is refused, naming the field", () => {
    const { transcript } = summaryOfSample();
    const text = exportJsonl(transcript);
    const [first, ...rest] = text.split("\n");
    const header = { ...JSON.parse(first ?? "{}"), summary: { turns: -1 } };
    const parsed = parseJsonl([JSON.stringify(header), ...rest].join("\n"), LIMITS);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain("summary");
  });

  it("Markdown: a summary line under the title and a per-turn table whose Σ row is the run's", () => {
    const { transcript, summary } = summaryOfSample();
    const markdown = exportMarkdown(transcript, { summary });
    expect(markdown).toContain("**Summary** 3 turns · 2 calls · 2 errors · wall ");
    expect(markdown).toContain(` · wall ${formatDuration(summary.durationMs)} · tokens`);
    expect(markdown).toContain("cost $0.00");
    const table = markdown.slice(markdown.indexOf("## Metrics"));
    const rows = table.split("\n").filter((line) => /^\| \d/.test(line));
    expect(rows).toHaveLength(3);
    const tokensIn = rows.map((row) => Number(row.split(" | ")[4]?.replace(/,/g, "")));
    expect(tokensIn.reduce((a, b) => a + b, 0)).toBe(summary.tokensIn);
    expect(table).toContain(`| **Σ** |`);
    expect(exportMarkdown(transcript)).not.toContain("## Metrics");
  });

  it("Markdown: one turn, call or error is singular", () => {
    const { summary } = summaryOfSample();
    const line = summaryLine({ ...summary, turns: 1, toolCalls: 1, errors: 1 });
    expect(line).toContain("**Summary** 1 turn · 1 call · 1 error · wall ");
    expect(summaryLine({ ...summary, turns: 0, toolCalls: 0, errors: 2 })).toContain(
      "**Summary** 0 turns · 0 calls · 2 errors · ",
    );
  });
});
