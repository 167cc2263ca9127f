import { guardedRoute, problem } from "@/app/api/http";

export const runtime = "nodejs";

/** Any `/api/…` path no route serves: a JSON 404 naming it, not Next's HTML page. */
async function unknown(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  return problem(404, `path: no API route "${pathname.slice(0, 200)}"; see docs/http-api.md.`);
}

const answer = guardedRoute(unknown, { query: "own" });

// HEAD comes from GET (Next); OPTIONS too gets the 404, not Next's 204.
export const GET = answer;
export const POST = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
export const OPTIONS = answer;
