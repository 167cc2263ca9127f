import { guardedRoute, otherMethods } from "@/app/api/http";
import { getCapture, readProxyLimits } from "@/lib/proxy/instance";
import { proxyRequest } from "@/lib/proxy/proxy";
import { readConfig } from "@/lib/server/config";
import { crossSiteRefusal } from "@/lib/server/same-origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ provider: string; path: string[] }>;
}

/**
 * The capture proxy (docs/capture-proxy.md): `/proxy/<provider>/v1/<path>` forwards to that provider and
 * records the answer as a captured transcript. Browsers on other sites are refused (they
 * could otherwise spend the server's keys); agents send no `Origin` and pass.
 */
async function handle(request: Request, context: Context): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused !== null) return refused;
  const { provider } = await context.params;
  const config = readConfig();
  const limits = readProxyLimits();
  return proxyRequest(request, provider, {
    env: config.providerEnv,
    capture: getCapture(config, limits),
    maxBodyBytes: limits.maxBodyBytes,
    bodyIdleMs: limits.bodyIdleMs,
    upstreamIdleMs: limits.upstreamIdleMs,
  });
}

const answer = guardedRoute(handle, { query: "own" });

export const GET = answer;
export const POST = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
// HEAD is forwarded (Next hands it to GET); OPTIONS is refused like any API route's (no CORS).
export const { OPTIONS } = otherMethods("GET", "POST", "PUT", "PATCH", "DELETE");
