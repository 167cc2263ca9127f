import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

const request = (host: string) =>
  new Request("http://localhost/api/transcripts", { headers: { host } });

describe("proxy.ts", () => {
  it("answers a foreign Host with 421 and a JSON error, security headers included", async () => {
    const response = proxy(request("rebound.example:3000"));
    expect(response.status).toBe(421);
    expect(await response.json()).toEqual({
      error:
        'host: "rebound.example:3000" is not served here; add it to WIRESCOPE_ALLOWED_HOSTS to allow it.',
    });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets a loopback request through with the security headers", () => {
    const response = proxy(request("127.0.0.1:3110"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers a method no API or proxy route serves with a JSON 405 (Next: an empty 400)", async () => {
    for (const path of ["/api/runs", "/proxy/openai/v1/models"]) {
      const response = proxy(
        new Request(`http://localhost${path}`, {
          method: "PROPFIND",
          headers: { host: "localhost" },
        }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      expect(await response.json()).toEqual({
        error:
          "method: PROPFIND is not served here; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.",
      });
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const method of ["GET", "OPTIONS", "HEAD"]) {
      const response = proxy(
        new Request("http://localhost/api/runs", { method, headers: { host: "localhost" } }),
      );
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });
});
