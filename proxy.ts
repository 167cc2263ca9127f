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
 * in app/api/http.ts; app/api/guarded-route.test.ts holds every route's handlers to it).
 */
export const config = {
  matcher: ["/((?!api/|proxy/).*)"],
};

export function proxy(request: Request): Response {
  const headers = securityHeaders(process.env.NODE_ENV === "development");
  const problem = hostProblem(request.headers, allowedHosts(process.env));
  const response =
    problem === null ? NextResponse.next() : NextResponse.json({ error: problem }, { status: 421 });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
