import { guardedRoute, otherMethods, problem } from "@/app/api/http";
import { wrongProxyPath } from "@/lib/proxy/wrong-path";

export const runtime = "nodejs";

/**
 * A path under `/proxy/<name>` outside its `/v1` (an agent's base URL set without `/v1`): a
 * JSON 404 saying where the base URL is, not Next's HTML page. `v1/…` is the proxy's own route.
 */
async function outside(request: Request): Promise<Response> {
  return problem(404, wrongProxyPath(new URL(request.url).pathname));
}

const answer = guardedRoute(outside, { query: "own" });

// HEAD comes from GET (Next); OPTIONS is refused as on the proxy's own route (no CORS).
export const GET = answer;
export const POST = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
export const { OPTIONS } = otherMethods("GET", "POST", "PUT", "PATCH", "DELETE");
