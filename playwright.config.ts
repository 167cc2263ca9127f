import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium";

// Both ports can be moved (WIRESCOPE_E2E_PORT, WIRESCOPE_E2E_FAKE_PORT) so that two checkouts
// can run their e2e suites side by side on one machine.
const PORT = Number(process.env.WIRESCOPE_E2E_PORT ?? 3100);
const FAKE_PORT = Number(process.env.WIRESCOPE_E2E_FAKE_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${PORT}`;
const isCI = Boolean(process.env.CI);

const launchOptions = chromiumLaunchOptions;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  // A stray `.only` fails the run everywhere, not only in CI (scripts/focused-tests.test.ts).
  forbidOnly: true,
  retries: isCI ? 1 : 0,
  workers: 1,
  reporter: isCI ? [["list"], ["html", { open: "never" }]] : "list",
  timeout: 30_000,
  use: {
    baseURL,
    screenshot: "only-on-failure",
    // The page follows the OS colour scheme until the user picks one; the specs were written
    // against the dark theme, so that is the scheme they run in unless they say otherwise.
    colorScheme: "dark",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], launchOptions },
    },
  ],
  webServer: {
    // The server users start (`npm start`): it builds only when the sources changed since the
    // last build, and answers bad request lines before Next (scripts/request-guard.mjs).
    command: "node scripts/start.mjs",
    url: baseURL,
    reuseExistingServer: !isCI,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      WIRESCOPE_HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      // e2e/providers.spec.ts starts the fake provider server on this port.
      WIRESCOPE_COMPAT_BASE_URL: `http://127.0.0.1:${FAKE_PORT}/v1`,
    },
  },
});
