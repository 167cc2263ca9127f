import { NextResponse } from "next/server";
import { allowedHosts, hostProblem, securityHeaders } from "@/lib/server/host-check";

/**
 * Runs before every page request (Next 16's request interception, formerly `middleware.ts`): a
 * request naming a host this server does not serve is refused with 421 and a JSON error (DNS
 * rebinding); every response gets the security headers.
 *
 * Not for `/api/…` and `/proxy/…`: where this runs, Next reads the whole request body before
 * the route sees a byte (and cuts it at 10 MB without an error), so a client sending a JSON body
 * a byte at a time held its request until Node's 300 s timeout, past the routes' own
 * `WIRESCOPE_BODY_IDLE_TIMEOUT_S`. Those routes make the same checks themselves (`guardedRoute`
 * in app/api/http.ts; app/api/guarded-route.test.ts holds every route's handlers to it). It
 * still sees their requests that have no body, to answer a method no route serves with a 405.
 */
export const config = {
  matcher: [
    "/((?!api/|proxy/).*)",
    // Requests to them without a body (nothing to buffer), only so that a method no route can
    // serve gets words: Next answers it with an empty 400 before any route runs.
    {
      source: "/(api|proxy)/:path*",
      missing: [
        // Any but a positive length: `content-length: 0` has no body either (some clients send it).
        { type: "header", key: "content-length", value: "0*[1-9][0-9]*" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};

/** The methods Next hands to a route handler. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function proxy(request: Request): Response {
  const headers = securityHeaders(process.env.NODE_ENV === "development");
  const problem = hostProblem(request.headers, allowedHosts(process.env));
  const response =
    problem === null
      ? (unservedMethod(request) ?? NextResponse.next())
      : NextResponse.json({ error: problem }, { status: 421 });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * A JSON 405 for a method no API or proxy route serves (`PROPFIND`…), else null: what
 * `npm start` answers before Next (`scripts/request-guard.mjs`), for a bare `next start` or
 * `next dev`, where Next itself would answer with an empty 400.
 */
function unservedMethod(request: Request): Response | null {
  const { pathname } = new URL(request.url);
  if (ROUTE_METHODS.has(request.method) || !/^\/(api|proxy)\//.test(pathname)) return null;
  return NextResponse.json(
    {
      error: `method: ${request.method.slice(0, 40)} is not served here; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.`,
    },
    { status: 405, headers: { allow: [...ROUTE_METHODS].join(", ") } },
  );
}
