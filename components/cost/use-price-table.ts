"use client";

import { useMemo } from "react";
import { useServerConfig } from "@/hooks/use-server-config";
import { mergePrices, type PriceTable } from "@/lib/cost";
import { usePlayground } from "@/state/playground-store";

/** The prices the page costs runs with: shipped, then the server's env, then the user's. */
export function usePriceTable(): PriceTable {
  const config = useServerConfig();
  const user = usePlayground((state) => state.prices);
  const env = config?.prices?.prices;
  return useMemo(() => mergePrices(env, user), [env, user]);
}
