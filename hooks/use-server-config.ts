"use client";

import { useEffect, useState } from "react";
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
