import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "./same-origin";

const request = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/runs", { method: "POST", headers });

describe("crossSiteRefusal", () => {
  it("lets same-origin browser requests and non-browser clients through", () => {
    expect(crossSiteRefusal(request({}))).toBeNull();
    expect(
      crossSiteRefusal(
        request({
          "sec-fetch-site": "same-origin",
          origin: "http://localhost:3000",
          host: "localhost:3000",
        }),
      ),
    ).toBeNull();
    expect(
      crossSiteRefusal(request({ origin: "http://localhost:3000", host: "localhost:3000" })),
    ).toBeNull();
  });

  it.each([
    [{ "sec-fetch-site": "cross-site", origin: "https://evil.example", host: "localhost:3000" }],
    [{ "sec-fetch-site": "same-site", origin: "http://localhost:8080", host: "localhost:3000" }],
    [{ origin: "https://evil.example", host: "localhost:3000" }],
    [{ origin: "null", host: "localhost:3000" }],
  ])("refuses a request from another site: %o", async (headers) => {
    const refusal = crossSiteRefusal(request(headers));
    expect(refusal?.status).toBe(403);
    expect(await refusal?.json()).toEqual({
      error: "origin: requests from other sites are refused.",
    });
  });
});
