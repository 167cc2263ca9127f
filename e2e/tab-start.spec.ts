import { expect, test } from "@playwright/test";
import { hydrated } from "./page-ready";

/**
 * A transcript's own URL opens with the transcript shown in the list, and the first Tab still
 * starts at the top of the page, on the skip link: the list once brought its row into view
 * with scrollIntoView, which in Chromium also moved where Tab starts, into the list, past the
 * skip link, the top bar and the conversation's header.
 */
test("the first Tab on a transcript's page is the skip link, with the list scrolled to it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(page).toHaveURL(/\/t\//);
  const id = new URL(page.url()).pathname.split("/").pop() ?? "";

  await page.goto(`/t/${id}`);
  await hydrated(page);
  const row = page.locator(`[data-transcript-id="${id}"]`);
  await expect(row).toBeInViewport();
  await expect(row).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to the message box" })).toBeFocused();
});
