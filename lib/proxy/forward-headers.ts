/**
 * Which headers cross the proxy, each way. Everything the client sends goes on, except what
 * belongs to this hop (connection, length, encoding, the Wirescope page's cookies) and the
 * proxy's own `x-wirescope-*` headers. The client's credentials win; the server's key is
 * added only when the client sent none.
 */
import type { Upstream } from "./upstreams";

/** Headers of this hop only (RFC 9110 §7.6.1) and ones that would not be true upstream. */
const HOP_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "accept-encoding",
  "cookie",
  "origin",
  "referer",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-proto",
  "x-real-ip",
]);

/** The request headers for the upstream. */
export function upstreamRequestHeaders(incoming: Headers, upstream: Upstream): Headers {
  const headers = new Headers();
  for (const [name, value] of incoming) {
    if (HOP_HEADERS.has(name) || name.startsWith("x-wirescope-") || name.startsWith("next-"))
      continue;
    headers.set(name, value);
  }
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  // Uncompressed, so the bytes the client gets are exactly the bytes the upstream sent.
  headers.set("accept-encoding", "identity");
  const hasCredentials = headers.has("authorization") || headers.has("x-api-key");
  if (!hasCredentials && upstream.key !== undefined) {
    if (upstream.format === "anthropic") headers.set("x-api-key", upstream.key);
    else headers.set("authorization", `Bearer ${upstream.key}`);
  }
  return headers;
}

/**
 * The upstream's answer headers for the client: all but this hop's framing. A body decoded on
 * the way (`upstream-call.ts`) comes without its `content-encoding` already; its length is
 * this hop's, as is every length (the client's framing is the server's).
 */
export function clientResponseHeaders(upstream: Headers): Headers {
  const headers = new Headers();
  for (const [name, value] of upstream) {
    if (HOP_HEADERS.has(name) || name === "set-cookie") continue;
    headers.set(name, value);
  }
  return headers;
}
