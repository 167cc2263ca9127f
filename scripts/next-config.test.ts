import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";

const require = createRequire(import.meta.url);
const CONFIG = require.resolve("../next.config.js");

/** next.config.js as Next loads it when the server starts, under `WIRESCOPE_HOST=host`. */
function configFor(host: string | undefined): { compress: boolean } {
  vi.stubEnv("WIRESCOPE_HOST", host);
  delete require.cache[CONFIG];
  return require(CONFIG);
}

describe("next.config.js: responses are compressed only for other machines", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("does not gzip on a loopback address (npm start's default)", () => {
    for (const host of [
      undefined,
      "",
      "127.0.0.1",
      "127.1.2.3",
      "::ffff:127.0.0.1",
      "localhost",
      "::1",
      "[::1]",
      " LOCALHOST ",
    ])
      expect(configFor(host).compress, String(host)).toBe(false);
  });

  it("gzips when the server listens for other machines", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "wirescope.internal", "127.0.0.1.example"])
      expect(configFor(host).compress, host).toBe(true);
  });
});
