import { expect, test } from "@playwright/test";
import { hydrated } from "./page-ready";

/**
 * The transcripts sidebar while the server's database is down, and once it is back: it says
 * why the list is missing, then shows the list without a reload or a run. `GET
 * /api/transcripts` is answered 503 here (as a server on an unreachable PostgreSQL answers)
 * until the spec lets it through.
 */
test("the sidebar shows the store's error, then the list once the database is back", async ({
  page,
  request,
}) => {
  const title = `store-down ${Date.now()}`;
  const imported = await request.post("/api/transcripts/import?format=text", {
    data: `<respond>${title}</respond>`,
    params: { title },
  });
  expect(imported.status()).toBe(201);
  let down = true;
  await page.route("**/api/transcripts?*", (route) =>
    down
      ? route.fulfill({
          status: 503,
          json: { error: "store: the database (DATABASE_URL) cannot be used; see the server log." },
        })
      : route.continue(),
  );
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByText("store: the database (DATABASE_URL) cannot be used")).toBeVisible();
  down = false;
  // No reload, no run: the sidebar asks again by itself.
  await expect(page.getByTestId("transcript-item").filter({ hasText: title })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText("store: the database (DATABASE_URL) cannot be used")).toHaveCount(0);
});
