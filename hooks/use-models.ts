"use client";

import { useEffect, useState } from "react";
import type { ProviderListing as ProviderOption } from "@/lib/providers/model-list";

// The server's own types: a field it does not send cannot be read here (`reachable` was).
export type { ModelOption, ProviderListing as ProviderOption } from "@/lib/providers/model-list";

/** The providers the server knows (`GET /api/models`): configured ones first. */
export function useModels(): ProviderOption[] | null {
  const [providers, setProviders] = useState<ProviderOption[] | null>(null);
  useEffect(() => {
    let live = true;
    fetch("/api/models")
      .then((response) => response.json() as Promise<{ providers: ProviderOption[] }>)
      .then(({ providers }) => live && setProviders(providers))
      .catch(() => live && setProviders([]));
    return () => {
      live = false;
    };
  }, []);
  return providers;
}
