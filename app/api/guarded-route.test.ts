import { describe, expect, it } from "vitest";
import { config } from "../../proxy";
import { GET as proxied } from "../proxy/[provider]/v1/[...path]/route";
import { GET as unknownPath } from "./[...path]/route";
import { guardedRoute } from "./http";
import { PUT as putRuns } from "./runs/route";
import { POST as importFile } from "./transcripts/import/route";

/**
 * `proxy.ts` (Next's request interception) buffers a request body and cuts it at 10 MB, so the
 * two routes whose bodies stream are left out of it and guard themselves.
 */
describe("routes whose bodies stream", () => {
  const matcher = new RegExp(`^${config.matcher[0]}$`);

  it("are left out of proxy.ts, every other path goes through it", () => {
    expect(matcher.test("/api/transcripts/import")).toBe(false);
    expect(matcher.test("/proxy/openai/v1/chat/completions")).toBe(false);
    for (const path of ["/", "/t/abc", "/api/runs", "/api/transcripts", "/api/transcripts/x/fork"])
      expect(matcher.test(path)).toBe(true);
    // Transcript routes whose id merely starts with "import" keep the Host check (421).
    for (const path of ["/api/transcripts/imported-1", "/api/transcripts/import-1/export"])
      expect(matcher.test(path)).toBe(true);
  });

  it("refuse a foreign Host with 421 and a JSON error, with the security headers", async () => {
    const foreign = { host: "attacker.example" };
    const imported = await importFile(
      new Request("http://attacker.example/api/transcripts/import", {
        method: "POST",
        headers: foreign,
        body: "{}",
      }),
    );
    const forwarded = await proxied(
      new Request("http://attacker.example/proxy/openai/v1/models", { headers: foreign }),
      { params: Promise.resolve({ provider: "openai", path: ["models"] }) },
    );
    for (const response of [imported, forwarded]) {
      expect(response.status).toBe(421);
      expect(((await response.json()) as { error: string }).error).toMatch(/^host: /);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    }
  });

  it("answer an allowed Host as the handler does, headers added", async () => {
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
  it("answers a JSON 405 with Allow", async () => {
    const response = await putRuns();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, GET");
    expect(await response.json()).toEqual({
      error: "method: PUT is not served here; use POST or GET.",
    });
  });
});
