import { expect, test } from "@playwright/test";

test("home page shows the Wirescope start page", async ({ page }) => {
  await page.goto("/");

  await expect(page).toHaveTitle("Wirescope");
  await expect(page.getByRole("heading", { level: 1, name: "Wirescope" })).toBeVisible();
  await expect(page.getByText("The agent playground that shows the wire")).toBeVisible();
  for (const dialect of ["xml", "delimiter", "action"]) {
    await expect(page.getByRole("listitem").getByText(dialect, { exact: true })).toBeVisible();
  }

  await page.screenshot({ path: "test-results/home.png", fullPage: true });
});
