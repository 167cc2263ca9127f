"use client";

import { useEffect, useState } from "react";
import type { Price } from "@/lib/cost";
import type { Dialect } from "@/lib/protocol";

export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ServerConfigView {
  dialects: Dialect[];
  tools: ToolInfo[];
  systemPrompts: Record<Dialect, string>;
  demo: { label: string; examples: string[]; scenarios: string[] };
  shell: boolean;
  /** An OTLP endpoint is configured (`WIRESCOPE_OTLP_ENDPOINT`): transcripts can be sent to it. */
  otlp?: boolean;
  /** `WIRESCOPE_PRICES` as the server read it (error: why it was ignored). */
  prices?: { prices: Record<string, Price>; error: string | null; shippedDate: string };
  /** Settings the server cannot use, each naming its variable (it runs on their defaults). */
  problems?: string[];
}

let cached: Promise<ServerConfigView> | null = null;

/** The server's tools, default system prompts and demo prompts (`GET /api/config`), fetched once. */
export function useServerConfig(): ServerConfigView | null {
  const [config, setConfig] = useState<ServerConfigView | null>(null);
  useEffect(() => {
    cached ??= fetch("/api/config").then(
      (response) => response.json() as Promise<ServerConfigView>,
    );
    let live = true;
    cached.then((value) => live && setConfig(value)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return config;
}
