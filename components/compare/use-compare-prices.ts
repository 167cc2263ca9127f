"use client";

import { useEffect, useMemo, useState } from "react";
import { useServerConfig } from "@/hooks/use-server-config";
import { PREFERENCES_KEY, parsePreferences } from "@/lib/client/preferences";
import { mergePrices, type Price, type PriceTable } from "@/lib/cost";

/**
 * The prices the playground's summary uses (shipped, the server's `WIRESCOPE_PRICES`, the
 * user's saved ones), read without the playground's store, so both sides are costed alike.
 */
export function useComparePrices(): PriceTable {
  const config = useServerConfig();
  const [user, setUser] = useState<Readonly<Record<string, Price>>>({});
  useEffect(() => {
    try {
      setUser(parsePreferences(window.localStorage.getItem(PREFERENCES_KEY)).prices ?? {});
    } catch {
      // Storage disabled (privacy mode): the shipped and server prices still apply.
    }
  }, []);
  const env = config?.prices?.prices;
  return useMemo(() => mergePrices(env, user), [env, user]);
}
