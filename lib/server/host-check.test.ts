import { describe, expect, it } from "vitest";
import { allowedHosts, hostName, hostProblem, securityHeaders } from "./host-check";

const headers = (host: string | null, forwarded?: string) => {
  const result = new Headers();
  if (host !== null) result.set("host", host);
  if (forwarded !== undefined) result.set("x-forwarded-host", forwarded);
  return result;
};

describe("host check", () => {
  const loopback = allowedHosts({});

  it.each(["localhost", "localhost:3000", "127.0.0.1:80", "[::1]", "[::1]:3110", "LOCALHOST:1"])(
    "serves %s",
    (host) => {
      expect(hostProblem(headers(host), loopback)).toBeNull();
    },
  );

  it.each([
    "evil.example",
    "evil.example:3000",
    "127.0.0.1.nip.io",
    "localhost.evil",
    "0.0.0.0",
    "localhost:evil.example",
    "[::1]evil.example",
    "127.0.0.1:3500/evil",
    "[::1",
  ])("refuses %s, naming it", (host) => {
    expect(hostProblem(headers(host), loopback)).toMatch(
      /^host: ".*" is not served here; add it to WIRESCOPE_ALLOWED_HOSTS/,
    );
  });

  it("refuses a missing Host and a forged X-Forwarded-Host", () => {
    expect(hostProblem(headers(null), loopback)).toBe("host: the request names no Host.");
    expect(hostProblem(headers("localhost", "evil.example"), loopback)).toMatch(/evil\.example/);
    expect(hostProblem(headers("localhost:3000", "localhost:3000"), loopback)).toBeNull();
  });

  it("serves the names in WIRESCOPE_ALLOWED_HOSTS, with or without ports", () => {
    const allowed = allowedHosts({ WIRESCOPE_ALLOWED_HOSTS: " box.lan , Devbox.local:8080,," });
    expect(allowed).toEqual(["localhost", "127.0.0.1", "[::1]", "box.lan", "devbox.local"]);
    expect(hostProblem(headers("box.lan:3000"), allowed)).toBeNull();
    expect(hostProblem(headers("devbox.local"), allowed)).toBeNull();
    expect(hostProblem(headers("other.lan"), allowed)).not.toBeNull();
  });

  it("reads host names without ports", () => {
    expect(hostName("[::1]:3000")).toBe("[::1]");
    expect(hostName("Example.COM:443")).toBe("example.com");
  });

  it("sends nosniff, a referrer policy and a CSP without eval outside development", () => {
    const production = securityHeaders(false);
    expect(production["x-content-type-options"]).toBe("nosniff");
    expect(production["referrer-policy"]).toBe("no-referrer");
    expect(production["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(production["content-security-policy"]).not.toContain("unsafe-eval");
    expect(securityHeaders(true)["content-security-policy"]).toContain("unsafe-eval");
  });
});
