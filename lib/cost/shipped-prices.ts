import type { Price } from "./types";

/**
 * USD per million input/output tokens (standard tier: no batch or long-context rates), for
 * common models of the configured providers. Taken on 2026-11-23 from public pages that quote
 * the providers' own pricing pages (dates they give in brackets):
 * - OpenAI: deploybase.ai/articles/openai-pricing (March 2026), tokenmath.io (GPT-4.1 rates,
 *   June 2026); gpt-5.5 from hivebook.wiki (2026). Cached input (`cacheRead`; writing to the
 *   cache costs the input rate): OpenAI's pricing page, gpt-5.4 and gpt-5.5 as morphllm.com
 *   quotes it (June 2026). gpt-5.4-mini ($0.75 / $4.50, cached $0.075): morphllm.com/openai-api-pricing
 *   (June 2026) and tokenmix.ai/blog/gpt-5-api-pricing (April 2026), both quoting OpenAI's
 *   pricing page; taken 2026-11-28.
 * - Anthropic: docs.anthropic.com pricing, finout.io (April 2026), deploybase.ai (March 2026).
 *   Cache reads at 0.1 × input, 5-minute cache writes at 1.25 × input and 1-hour ones at 2 ×,
 *   its stated multipliers (claude-3-haiku: $0.03 / $0.30 / $0.50). Its usage tells the two
 *   writes apart (`cache_creation.ephemeral_1h_input_tokens`), and each is priced at its rate.
 * - Google: deploybase.ai/articles/gemini-2.5-pricing (March 2026); gemini-2.5-pro below
 *   200 K prompt tokens (longer prompts cost more). Cache reads (implicit or explicit caching,
 *   usage's `cachedContentTokenCount`) at 0.1 × input: the 90 % discount
 *   deploybase.ai/articles/gemini-api-pricing quotes from Google's page (March 2026). Cache
 *   storage is billed per hour, outside any one request: not counted. gemini-3.5-flash
 *   ($1.50 / $9.00, cached $0.15): wowhow.cloud's Gemini 3.5 Flash developer guide and
 *   apidog.com/blog/gemini-3-5-flash-pricing (May 2026, from Google's launch pricing); taken
 *   2026-11-28.
 * A model not listed has no price: Wirescope never guesses one. Set `WIRESCOPE_PRICES` or the
 * settings drawer's prices to add or correct one. `demo/*` prices every model id of the
 * offline demo provider (a saved transcript or a fork may name one other than `scripted`):
 * it runs no model, so it costs nothing whatever the id.
 */
export const SHIPPED_PRICES: Readonly<Record<string, Price>> = {
  "demo/*": { input: 0, output: 0 },
  "openai/gpt-5.5": { input: 5, output: 30, cacheRead: 0.5 },
  "openai/gpt-5.4": { input: 2.5, output: 15, cacheRead: 0.25 },
  "openai/gpt-5.4-mini": { input: 0.75, output: 4.5, cacheRead: 0.075 },
  "openai/gpt-5.1": { input: 1.25, output: 10, cacheRead: 0.125 },
  "openai/gpt-5": { input: 1.25, output: 10, cacheRead: 0.125 },
  "openai/gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025 },
  "openai/gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005 },
  "openai/gpt-4.1": { input: 2, output: 8, cacheRead: 0.5 },
  "openai/gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 },
  "openai/gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "openai/gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25 },
  "openai/gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075 },
  "openai/o3": { input: 2, output: 8, cacheRead: 0.5 },
  "openai/o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275 },
  "anthropic/claude-opus-4-6": {
    input: 5,
    output: 25,
    cacheRead: 0.5,
    cacheWrite: 6.25,
    cacheWrite1h: 10,
  },
  "anthropic/claude-opus-4-5": {
    input: 5,
    output: 25,
    cacheRead: 0.5,
    cacheWrite: 6.25,
    cacheWrite1h: 10,
  },
  "anthropic/claude-opus-4-1": {
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
    cacheWrite1h: 30,
  },
  "anthropic/claude-opus-4-0": {
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
    cacheWrite1h: 30,
  },
  "anthropic/claude-opus-4": {
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheWrite: 18.75,
    cacheWrite1h: 30,
  },
  "anthropic/claude-sonnet-4-6": {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
    cacheWrite1h: 6,
  },
  "anthropic/claude-sonnet-4-5": {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
    cacheWrite1h: 6,
  },
  "anthropic/claude-sonnet-4-0": {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
    cacheWrite1h: 6,
  },
  "anthropic/claude-sonnet-4": {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
    cacheWrite1h: 6,
  },
  "anthropic/claude-haiku-4-5": {
    input: 1,
    output: 5,
    cacheRead: 0.1,
    cacheWrite: 1.25,
    cacheWrite1h: 2,
  },
  "anthropic/claude-3-5-haiku": {
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheWrite: 1,
    cacheWrite1h: 1.6,
  },
  "anthropic/claude-3-haiku": {
    input: 0.25,
    output: 1.25,
    cacheRead: 0.03,
    cacheWrite: 0.3,
    cacheWrite1h: 0.5,
  },
  "google/gemini-3.5-flash": { input: 1.5, output: 9, cacheRead: 0.15 },
  "google/gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.125 },
  "google/gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.03 },
};

/** The date the shipped prices were taken, for the settings drawer and docs. */
export const SHIPPED_PRICES_DATE = "2026-11-23";
