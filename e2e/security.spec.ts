import { expect, test } from "@playwright/test";

test("the app runs a demo conversation under its Content Security Policy, nothing blocked", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const response = await page.goto("/");
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("default-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");

  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByText("Run ended")).toBeVisible();
  // The debug panel's views: shiki highlighting and the markdown renderer run here.
  await page.getByRole("button", { name: "Debug" }).click();
  for (const name of ["Raw", "Events", "Chunks", "Request"]) {
    const tab = page.getByRole("tab", { name: new RegExp(`^${name}`) });
    if ((await tab.count()) > 0) await tab.first().click();
  }
  await expect(page.getByText("list the files").first()).toBeVisible();
  expect(problems).toEqual([]);
});

test("a request naming a foreign host is refused with 421 and a JSON error", async ({
  request,
}) => {
  const response = await request.get("/api/transcripts", {
    headers: { host: "rebound.example" },
  });
  expect(response.status()).toBe(421);
  expect(await response.json()).toEqual({
    error: expect.stringContaining('"rebound.example" is not served here'),
  });
});
