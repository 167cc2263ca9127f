export function telemetryEnv(
  env: Record<string, string | undefined>,
): Record<string, string | undefined>;
