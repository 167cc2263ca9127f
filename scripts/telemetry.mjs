// Next.js telemetry stays off unless the user turns it on with NEXT_TELEMETRY_DISABLED=0.
// (Next itself treats any value of that variable, "0" included, as "disabled".)
export function telemetryEnv(env) {
  if (env.NEXT_TELEMETRY_DISABLED === "0") {
    const { NEXT_TELEMETRY_DISABLED: _on, ...rest } = env;
    return rest;
  }
  return { ...env, NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED || "1" };
}
