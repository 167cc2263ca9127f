import { expect, test } from "@playwright/test";
import { hydrated, PREFERENCES } from "./page-ready";

/**
 * A log pasted into the message box past what a run takes (200,000 characters): the page says
 * so before sending and keeps the text, rather than sending it to be refused; the draft it
 * remembers across a reload is cut, not stored whole (3 MB of it filled the storage quota).
 */
test("a message over the limit is named before sending; the saved draft stays bounded", async ({
  page,
}) => {
  await page.goto("/");
  await hydrated(page);
  const box = page.getByLabel("Message");
  const huge = "word ".repeat(60_000);
  await box.fill(huge);
  // Counted as the server counts: trimmed.
  await expect(page.getByRole("status").filter({ hasText: "a run takes at most" })).toHaveText(
    /299,999 characters long: a run takes at most 200,000/,
  );
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await box.press("Enter");
  // Not sent: no refusal came back, the text is still there.
  await expect(page.getByRole("alert").filter({ hasText: "Too big" })).toHaveCount(0);
  expect(await box.evaluate((element) => (element as HTMLTextAreaElement).value.length)).toBe(
    huge.length,
  );
  expect(page.url()).not.toContain("/t/");
  const stored = await page.evaluate((key) => localStorage.getItem(key) ?? "", PREFERENCES);
  expect(stored.length).toBeLessThan(150_000);
  await box.fill("short again");
  await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();
});
