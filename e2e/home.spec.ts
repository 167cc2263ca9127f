import { expect, test } from "@playwright/test";

test("the playground opens on the offline demo model, ready to chat", async ({ page }) => {
  await page.goto("/");

  await expect(page).toHaveTitle("Wirescope");
  await expect(page.getByLabel("Message")).toBeVisible();
  await expect(page.getByText("Demo (scripted, offline)")).toBeVisible();
  for (const dialect of ["xml", "delimiter", "action"]) {
    await expect(page.getByRole("radio", { name: dialect })).toBeAttached();
  }
  await expect(page.getByRole("radio", { name: "xml" })).toBeChecked();

  await page.screenshot({ path: "test-results/home.png" });
});
