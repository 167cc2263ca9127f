"use client";

import { useEffect, useMemo, useState } from "react";
import { useServerConfig } from "@/hooks/use-server-config";
import { mergePrices } from "@/lib/cost/price-table";
import type { Price, PriceTable } from "@/lib/cost/types";

/**
 * The prices the playground's summary uses (shipped, the server's `WIRESCOPE_PRICES`, the
 * user's saved ones), read without the playground's store, so both sides are costed alike.
 * The saved ones are read after the first paint: checking them needs the preferences' schema
 * code (zod), which the compare view would otherwise load before it can draw anything.
 */
export function useComparePrices(): PriceTable {
  const config = useServerConfig();
  const [user, setUser] = useState<Readonly<Record<string, Price>>>({});
  useEffect(() => {
    let live = true;
    void import("@/lib/client/preferences").then(({ PREFERENCES_KEY, parsePreferences }) => {
      try {
        const saved = parsePreferences(window.localStorage.getItem(PREFERENCES_KEY)).prices;
        if (live && saved !== undefined) setUser(saved);
      } catch {
        // Storage disabled (privacy mode): the shipped and server prices still apply.
      }
    });
    return () => {
      live = false;
    };
  }, []);
  const env = config?.prices?.prices;
  return useMemo(() => mergePrices(env, user), [env, user]);
}
