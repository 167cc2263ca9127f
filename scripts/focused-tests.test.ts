import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * A forgotten `.only` would silently skip the rest of the suite. Both runners refuse one with
 * the project's own configs, on every machine (not only when CI is set): each is run here on a
 * fixture that has a focused test and must fail.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/focused", import.meta.url));

function runNode(args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, CI: "", NEXT_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" };
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

describe("a stray .only fails the run", () => {
  it("in Vitest (allowOnly: false)", async () => {
    const { code, output } = await runNode([
      "node_modules/vitest/vitest.mjs",
      "run",
      "--config",
      "vitest.config.mts",
      "--dir",
      fixture,
    ]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/Unexpected \.only modifier/);
  }, 60_000);

  it("in Playwright (forbidOnly: true)", async () => {
    const { code, output } = await runNode([
      "node_modules/@playwright/test/cli.js",
      "test",
      "--list",
      "--config",
      `${fixture}/playwright.config.ts`,
    ]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/focused with '\.only' is not allowed due to the 'forbidOnly' option/);
  }, 60_000);
});
