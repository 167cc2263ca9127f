"use client";

import { useState } from "react";
import { useServerConfig } from "@/hooks/use-server-config";
import { type Price, parsePricesJson, priceFor, SHIPPED_PRICES_DATE } from "@/lib/cost";
import { usePlayground } from "@/state/playground-store";
import { usePriceTable } from "./use-price-table";

const EXAMPLE = '{ "compat/llama-3.1-8b": { "input": 0.05, "output": 0.08 } }';

/**
 * The settings drawer's prices: what the current model costs and where that price comes
 * from, and the user's own prices (JSON, USD per million tokens) that override the shipped
 * table and `WIRESCOPE_PRICES`. Saved with the preferences once valid; an error names the field.
 */
export function PriceSettings() {
  const config = useServerConfig();
  const user = usePlayground((state) => state.prices);
  const provider = usePlayground((state) => state.provider);
  const modelId = usePlayground((state) => state.modelId);
  const table = usePriceTable();
  const [text, setText] = useState(() =>
    Object.keys(user).length === 0 ? "" : JSON.stringify(user, null, 2),
  );
  const [error, setError] = useState<string | null>(null);
  const price = priceFor(table, provider, modelId);
  const onChange = (value: string) => {
    setText(value);
    const parsed = parsePricesJson(value.trim() === "" ? "{}" : value, "Prices:");
    setError(parsed.ok ? null : parsed.error);
    if (parsed.ok) usePlayground.getState().setSettings({ prices: parsed.prices });
  };
  return (
    <section>
      <label
        htmlFor="price-overrides"
        className="mb-1 block text-xs font-medium uppercase tracking-wider text-fg-subtle"
      >
        Prices (USD per million tokens)
      </label>
      <p className="mb-1 text-xs text-fg-muted" data-testid="current-price">
        {`${provider}/${modelId}: `}
        {price === null
          ? "no price — costs are not shown for it"
          : `$${price.input} in, $${price.output} out${cacheRates(price)} (${
              price.source === "shipped"
                ? `shipped table, ${config?.prices?.shippedDate ?? SHIPPED_PRICES_DATE}`
                : price.source === "env"
                  ? "WIRESCOPE_PRICES"
                  : "your prices"
            })`}
      </p>
      {config?.prices?.error ? (
        <p className="mb-1 text-xs text-danger" role="status">
          The server ignored {config.prices.error}
        </p>
      ) : null}
      <textarea
        id="price-overrides"
        value={text}
        onChange={(event) => onChange(event.target.value)}
        placeholder={EXAMPLE}
        rows={4}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby="price-overrides-help"
        className="w-full resize-y rounded border border-border bg-wire-bg p-2 font-mono text-xs text-fg aria-invalid:border-danger"
      />
      <p
        id="price-overrides-help"
        className="text-xs text-fg-subtle"
        role={error === null ? undefined : "alert"}
      >
        {error ??
          'Keys are "provider/model"; cacheRead and cacheWrite (prompt-cache rates) are optional. Yours win over WIRESCOPE_PRICES and the shipped table.'}
      </p>
    </section>
  );
}

/** `, cache read $x, cache write $y` for the rates a price has; "" for none. */
function cacheRates(price: Price): string {
  const rates = [
    price.cacheRead === undefined ? null : `cache read $${price.cacheRead}`,
    price.cacheWrite === undefined ? null : `cache write $${price.cacheWrite}`,
  ].filter((rate) => rate !== null);
  return rates.length === 0 ? "" : `, ${rates.join(", ")}`;
}
