import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { RouteHas } from "next/dist/lib/load-custom-routes";
// Next's internals: the test runs the very check its server does.
import { matchHas } from "next/dist/shared/lib/router/utils/prepare-destination";
import { describe, expect, it } from "vitest";
import { config } from "../../proxy";
import { GET as unknownPath } from "./[...path]/route";
import { guardedRoute } from "./http";
import { PUT as putRuns } from "./runs/route";

const APP = join(__dirname, "..");
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, context: unknown) => Promise<Response>;

/** Every `route.ts` under app/, as its URL path with sample parameters. */
function routeFiles(directory = APP): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

function urlPath(file: string): string {
  const path = relative(APP, file)
    .replace(/\/?route\.ts$/, "")
    .replace(/\[\.\.\.\w+\]/g, "x/y")
    .replace(/\[(\w+)\]/g, "sample");
  return `/${path}`;
}

/** Params any route accepts far enough to be refused before they are read. */
const context = {
  params: Promise.resolve({ id: "sample", runId: "sample", provider: "openai", path: ["x"] }),
};

const routes = await Promise.all(
  routeFiles().map(async (file) => ({
    path: urlPath(file),
    handlers: (await import(file)) as Partial<Record<(typeof METHODS)[number], Handler>>,
  })),
);

describe("proxy.ts (Next's request interception)", () => {
  const [pages, bodiless] = config.matcher;
  const matcher = new RegExp(`^${String(pages)}$`);

  it("runs for pages only: where it runs, Next reads a request's whole body before the route", () => {
    for (const path of ["/", "/t/abc", "/api-docs"]) expect(matcher.test(path)).toBe(true);
    for (const { path } of routes) expect(matcher.test(path), path).toBe(false);
  });

  it("sees API and proxy requests only when they have no body (for unknown methods' words)", () => {
    if (typeof bodiless !== "object") throw new Error("expected a matcher with conditions");
    expect(bodiless.source).toBe("/(api|proxy)/:path*");
    // Next's own check of `missing`, as its server runs it for each request.
    const sees = (headers: Record<string, string>) =>
      matchHas({ headers } as never, {}, [], bodiless.missing as RouteHas[]) !== false;
    expect(sees({})).toBe(true);
    expect(sees({ "content-length": "0" })).toBe(true);
    expect(sees({ "content-length": "12" })).toBe(false);
    expect(sees({ "content-length": "100" })).toBe(false);
    expect(sees({ "transfer-encoding": "chunked" })).toBe(false);
  });
});

describe("every API and proxy route", () => {
  it("has been found (the walk works)", () => {
    const paths = routes.map((route) => route.path);
    expect(paths).toContain("/api/runs");
    expect(paths).toContain("/api/transcripts/sample/fork");
    expect(paths).toContain("/proxy/sample/v1/x/y");
    expect(routes.length).toBeGreaterThanOrEqual(15);
  });

  it("refuses a foreign Host with 421, JSON and the security headers, for every method it exports", async () => {
    for (const { path, handlers } of routes)
      for (const method of METHODS) {
        const handler = handlers[method];
        if (handler === undefined) continue;
        const request = new Request(`http://attacker.example${path}`, {
          method,
          headers: { host: "attacker.example" },
        });
        const response = await handler(request, context);
        expect(response.status, `${method} ${path}`).toBe(421);
        if (method !== "HEAD")
          expect(((await response.json()) as { error: string }).error).toMatch(/^host: /);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      }
  });

  it("refuses a query parameter it does not take with 400 naming it, for every method it serves", async () => {
    let checked = 0;
    for (const { path, handlers } of routes) {
      // The capture proxy hands the query on upstream; an unknown path is a 404 whatever it has.
      if (path.startsWith("/proxy/") || path === "/api/x/y") continue;
      for (const method of ["GET", "POST", "PATCH", "DELETE"] as const) {
        const handler = handlers[method];
        if (handler === undefined) continue;
        // The one parameter a route requires (listing runs: only running ones), then the typo.
        const required = path === "/api/runs" && method === "GET" ? "active=1&" : "";
        const request = new Request(`http://127.0.0.1${path}?${required}zz_typo=1`, {
          method,
          headers: { host: "127.0.0.1", "content-type": "application/json" },
          ...(method === "GET" ? {} : { body: "{}" }),
        });
        const response = await handler(request, context);
        if (response.status === 405) continue; // a method the route does not serve
        expect(response.status, `${method} ${path}`).toBe(400);
        const { error } = (await response.json()) as { error: string };
        expect(error, `${method} ${path}`).toMatch(/^query: unknown parameter "zz_typo"/);
        checked++;
      }
    }
    expect(checked).toBe(17);
  });

  it("answers OPTIONS with a JSON 405 and Allow (no CORS here), not Next's empty 204", async () => {
    for (const { path, handlers } of routes) {
      const options = handlers.OPTIONS;
      expect(options, `OPTIONS ${path}`).toBeDefined();
      if (options === undefined || path === "/api/x/y") continue;
      const response = await options(
        new Request(`http://127.0.0.1${path}`, { method: "OPTIONS" }),
        context,
      );
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).toMatch(/^(GET|POST|PATCH)/);
      expect(await response.json()).toEqual({
        error: expect.stringMatching(/^method: OPTIONS is not served here; use /),
      });
    }
  });

  it("answers HEAD with a JSON 405 where there is no GET (Next answers it with GET elsewhere)", async () => {
    for (const { path, handlers } of routes) {
      if (handlers.GET !== undefined) continue;
      const head = handlers.HEAD;
      expect(head, `HEAD ${path}`).toBeDefined();
      if (head === undefined) continue;
      const response = await head(new Request(`http://127.0.0.1${path}`, { method: "HEAD" }), {});
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).not.toContain("HEAD");
    }
  });
});

describe("guardedRoute", () => {
  it("answers an allowed Host as the handler does, headers added", async () => {
    const route = guardedRoute(async (_request: Request) =>
      Response.json({ ok: true }, { status: 202, headers: { "x-own": "kept" } }),
    );
    const response = await route(
      new Request("http://127.0.0.1:3000/x", { headers: { host: "127.0.0.1:3000" } }),
    );
    expect(response.status).toBe(202);
    expect(response.headers.get("x-own")).toBe("kept");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe("an /api path no route serves", () => {
  it("answers a JSON 404 naming it", async () => {
    const response = await unknownPath(new Request("http://localhost/api/nothing"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'path: no API route "/api/nothing"; see docs/http-api.md.',
    });
  });
});

describe("a method a route does not serve", () => {
  it("answers a JSON 405 with Allow (HEAD with GET)", async () => {
    const response = await putRuns(new Request("http://127.0.0.1/api/runs", { method: "PUT" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, GET, HEAD");
    expect(await response.json()).toEqual({
      error: "method: PUT is not served here; use POST or GET.",
    });
  });
});
