/**
 * Which `Host` a request may name (DNS rebinding): a page on `evil.example` whose name is made
 * to resolve to 127.0.0.1 reaches this server with `Host: evil.example` and a matching
 * `Origin`, so the same-origin check passes. Only loopback names, and the names the operator
 * lists in `WIRESCOPE_ALLOWED_HOSTS` (comma-separated), are served; any port.
 */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** The host names allowed by `env` (lower case, without ports). */
export function allowedHosts(env: Readonly<Record<string, string | undefined>>): string[] {
  const configured = (env.WIRESCOPE_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((name) => hostName(name.trim()))
    .filter((name) => name !== "");
  return [...LOOPBACK, ...configured];
}

/**
 * `Host` without its port, lower case: `[::1]:3000` → `[::1]`, `LocalHost:80` → `localhost`.
 * Anything after the name but a port (`localhost:evil.example`, `[::1]evil`, `host/path`)
 * makes it a name of its own, which no list holds.
 */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  const close = lower.startsWith("[") ? lower.indexOf("]") + 1 : 0;
  const colon = lower.indexOf(":", close);
  const name = colon === -1 ? lower : lower.slice(0, colon);
  const port = colon === -1 ? "" : lower.slice(colon + 1);
  return /^\d*$/.test(port) && (close === 0 || name.length === close) ? name : lower;
}

/**
 * Why a request is refused for its host, or `null` when it may go on: `Host` (and
 * `X-Forwarded-Host`, when a proxy in front set it) must name an allowed host.
 */
export function hostProblem(headers: Headers, allowed: readonly string[]): string | null {
  const host = headers.get("host");
  if (host === null || host === "") return "host: the request names no Host.";
  for (const value of [host, headers.get("x-forwarded-host")]) {
    if (value === null) continue;
    for (const name of value.split(",")) {
      const shown = name.trim().slice(0, 100);
      if (!allowed.includes(hostName(name.trim())))
        return `host: ${JSON.stringify(shown)} is not served here; add it to WIRESCOPE_ALLOWED_HOSTS to allow it.`;
    }
  }
  return null;
}

/** Sent with every response. Inline scripts and styles: Next's bootstrapping and shiki's tokens. */
export function securityHeaders(development: boolean): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": policy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  };
}
