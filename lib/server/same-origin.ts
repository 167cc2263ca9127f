/**
 * Refuses a state-changing request sent by another site (cross-site request forgery): a page
 * on any origin could otherwise POST a "simple" request to this local server and start a run
 * on the user's keys, or with the shell tool on, run commands. Browsers say where a request
 * comes from (`Sec-Fetch-Site`, `Origin`); requests without those headers (curl, scripts,
 * tests) are not browser cross-site requests and pass.
 */
export function crossSiteRefusal(request: Request): Response | null {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return refuse();
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return origin === "null" ? refuse() : null;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return refuse();
  }
  return host !== null && originHost !== host ? refuse() : null;
}

function refuse(): Response {
  return Response.json(
    { error: "origin: requests from other sites are refused." },
    { status: 403 },
  );
}
