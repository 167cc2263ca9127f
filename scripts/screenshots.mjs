#!/usr/bin/env node
// `npm run screenshots`: the README's pictures. Builds if the sources changed, starts the app on
// a free port with a fresh data directory, drives a short conversation with the offline demo
// model in Chromium (Debian's /usr/bin/chromium when present), and saves PNGs in docs/images/.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build } from "./build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "docs", "images");
const SYSTEM_CHROMIUM = "/usr/bin/chromium";

await build({ ifChanged: true, quiet: true });
await mkdir(out, { recursive: true });
const dataDir = await mkdtemp(join(tmpdir(), "wirescope-shots-"));
const server = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
  cwd: root,
  env: { ...process.env, PORT: "0", WIRESCOPE_HOST: "127.0.0.1", WIRESCOPE_DATA_DIR: dataDir },
  stdio: ["ignore", "pipe", "inherit"],
});
let browser;
try {
  const url = await new Promise((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (data) => {
      output += data;
      const found = /Wirescope {2}(http:\/\/\S+)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`the app exited (${code}) before it listened`)));
  });
  browser = await chromium.launch(
    existsSync(SYSTEM_CHROMIUM)
      ? {
          executablePath: SYSTEM_CHROMIUM,
          args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
        }
      : {},
  );
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  await page.getByRole("group", { name: "Dialect" }).getByText("xml", { exact: true }).click();
  for (const message of ["list the files", "demo: parallel batch"]) {
    await page.getByLabel("Message").fill(message);
    await page.getByLabel("Message").press("Enter");
    await page.getByRole("button", { name: "Stop" }).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Send" }).waitFor({ state: "visible", timeout: 60_000 });
  }
  // Both pictures in the dark theme, whichever the app starts in.
  const toDark = page.getByRole("button", { name: "Switch to the dark theme" });
  if (await toDark.isVisible()) await toDark.click();
  await page.screenshot({ path: join(out, "playground.png") });
  console.log(`saved ${join("docs", "images", "playground.png")}`);
  // The light theme, from the start of the conversation: the first run's cards.
  await page.getByRole("button", { name: "Switch to the light theme" }).click();
  await page.getByTestId("timeline").evaluate((element) => {
    element.scrollTop = 0;
  });
  await page.getByTestId("timeline").locator("[data-event-type=user]").first().waitFor();
  await page.screenshot({ path: join(out, "playground-light.png") });
  console.log(`saved ${join("docs", "images", "playground-light.png")}`);
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  await rm(dataDir, { recursive: true, force: true });
}
