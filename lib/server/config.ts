import { resolve } from "node:path";

/** Server settings from environment variables (documented in the README and `.env.example`). */
export interface ServerConfig {
  /** Where the database and the workspaces live (`WIRESCOPE_DATA_DIR`, default `./data`). */
  dataDir: string;
  /** Whether the `shell` tool is offered (`WIRESCOPE_ENABLE_SHELL=1`). */
  shell: boolean;
  /** The demo model's pace between pieces in ms (`WIRESCOPE_DEMO_PACE_MS`, default 15). */
  demoPaceMs: number | undefined;
  maxTurns: number;
}

export function readConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const pace = env.WIRESCOPE_DEMO_PACE_MS;
  const turns = Number(env.WIRESCOPE_MAX_TURNS ?? 10);
  return {
    dataDir: resolve(env.WIRESCOPE_DATA_DIR ?? "data"),
    shell: env.WIRESCOPE_ENABLE_SHELL === "1",
    demoPaceMs: pace === undefined || pace === "" ? undefined : Math.max(0, Number(pace) || 0),
    maxTurns: Number.isInteger(turns) && turns > 0 ? turns : 10,
  };
}
