import { existsSync } from "node:fs";

/**
 * How the e2e tests and `bench:ui` launch Chromium: the distribution's (Debian's
 * `/usr/bin/chromium`, no browser download) when present, else Playwright's own
 * (`npx playwright install chromium`). The flags keep it off the network it cannot reach.
 */
const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export const chromiumLaunchOptions = existsSync(SYSTEM_CHROMIUM)
  ? {
      executablePath: SYSTEM_CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    }
  : {};
