import { expect, test } from "@playwright/test";

/** Back and Forward between conversations, as a user who starts a new one and goes back. */

test("Back after the top bar's New returns to the conversation that was open", async ({
  page,
  request,
}) => {
  const title = `history-${Date.now()} list the files`;
  const response = await request.post("/api/runs", {
    data: { message: title, dialect: "xml", model: { provider: "demo", settings: { paceMs: 0 } } },
  });
  const transcriptId = response.headers()["x-transcript-id"];
  await response.body();

  await page.goto(`/t/${transcriptId}`);
  const header = page.getByTestId("transcript-header");
  await expect(header).toContainText(title);

  await page.getByRole("button", { name: "New", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header).toBeHidden();

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/t/${transcriptId}$`));
  await expect(header).toContainText(title);

  await page.goForward();
  await expect(page).toHaveURL(/\/$/);
  await expect(header).toBeHidden();
});
