import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

/**
 * `npm start` with a numeric setting it cannot use (scripts/start.mjs): it refuses to start,
 * naming the variable and the values it takes, instead of quietly running on the default.
 * The build is the suite's own (its web server built it), so this start does not build.
 */
const PORT = Number(process.env.WIRESCOPE_E2E_PORT ?? 3100) + 10;

test("npm start refuses a setting that is not a number it takes, naming it", async () => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), "wirescope-start-settings-"));
  try {
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      env: {
        ...process.env,
        PORT: String(PORT),
        WIRESCOPE_HOST: "127.0.0.1",
        WIRESCOPE_DATA_DIR: dataDir,
        WIRESCOPE_MAX_LIVE_RUNS: "lots",
        WIRESCOPE_BODY_IDLE_TIMEOUT_S: "0",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // A start that does not refuse would serve on: stopped here, so it holds no port.
    const code = await Promise.race([
      exited,
      new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 60_000)),
    ]);
    if (code === "running") child.kill();
    expect(code).toBe(1);
    expect(stderr).toContain("Wirescope cannot start: fix these settings.");
    expect(stderr).toContain(
      "WIRESCOPE_MAX_LIVE_RUNS: must be a whole number of runs, 0 or more (0: no limit); unset, it is 1000.",
    );
    expect(stderr).toContain(
      "WIRESCOPE_BODY_IDLE_TIMEOUT_S: must be a number of seconds, above 0 and at most 2147483;",
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a bare next start runs on the defaults, and the page says which settings it ignored", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const port = PORT + 1;
  const dataDir = mkdtempSync(join(tmpdir(), "wirescope-start-settings-"));
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: { ...process.env, WIRESCOPE_DATA_DIR: dataDir, WIRESCOPE_POLL_MS: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (data: Buffer) => {
        if (data.toString().includes("Ready")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`next start exited with ${code}`)));
    });
    await page.goto(`http://127.0.0.1:${port}/`);
    const banner = page.getByTestId("settings-problems");
    await expect(banner).toContainText("This server runs on defaults for a setting it cannot use");
    await expect(banner).toContainText("WIRESCOPE_POLL_MS: must be a number of ms, 5 or more");
    await expect(banner).toHaveAttribute("role", "status");
  } finally {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
