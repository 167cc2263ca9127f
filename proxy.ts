import { NextResponse } from "next/server";
import { allowedHosts, hostProblem, securityHeaders } from "@/lib/server/host-check";

/**
 * Runs before every request (Next 16's request interception, formerly `middleware.ts`): a
 * request naming a host this server does not serve is refused with 421 and a JSON error (DNS
 * rebinding); every response gets the security headers.
 *
 * Not for the two routes whose bodies stream (an import of up to a gigabyte, a proxied call):
 * where this runs, Next buffers the request body in memory and cuts it at 10 MB without an
 * error. Those routes make the same checks themselves (`guardedRoute` in app/api/http.ts).
 */
export const config = {
  // `import/?$`: the import route alone; a transcript id that starts with "import" is still checked.
  matcher: ["/((?!api/transcripts/import/?$|proxy/).*)"],
};

export function proxy(request: Request): Response {
  const headers = securityHeaders(process.env.NODE_ENV === "development");
  const problem = hostProblem(request.headers, allowedHosts(process.env));
  const response =
    problem === null ? NextResponse.next() : NextResponse.json({ error: problem }, { status: 421 });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
