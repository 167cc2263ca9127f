/** USD per million tokens, one model. */
export interface Price {
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache; absent: they cost `input`. */
  cacheRead?: number;
  /**
   * Input tokens written to the prompt cache (Anthropic's 5-minute cache: 1.25 × input);
   * absent: `input`.
   */
  cacheWrite?: number;
  /**
   * Input tokens written to a 1-hour prompt cache (Anthropic: 2 × input); absent: 2 × `input`,
   * Anthropic's rate (the only provider that reports such writes).
   */
  cacheWrite1h?: number;
}

/** Where a price came from: the table shipped with Wirescope, the server's env, or the user. */
export type PriceSource = "shipped" | "env" | "settings";

export interface SourcedPrice extends Price {
  source: PriceSource;
}

/**
 * Prices keyed by `provider/model` (`openai/gpt-4.1`, `anthropic/claude-haiku-4-5`). A key
 * names one provider's model: the same id served elsewhere (OpenRouter, a compatible server)
 * has no price unless given one.
 */
export type PriceTable = Readonly<Record<string, SourcedPrice>>;
