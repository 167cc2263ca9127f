"use client";

import { useEffect, useState } from "react";

export interface ModelOption {
  id: string;
  source: string;
}

export interface ProviderOption {
  id: string;
  label: string;
  configured: boolean;
  /** How to configure it, when it is not (an env var to set). */
  configure?: string;
  defaultModel?: string;
  models: ModelOption[];
  freeText: boolean;
  reachable?: boolean;
}

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
