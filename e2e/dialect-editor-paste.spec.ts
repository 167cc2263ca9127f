import { expect, test } from "@playwright/test";
import { hydrated } from "./page-ready";

/**
 * A megabyte-sized log pasted as the dialect editor's sample: the textarea keeps what the
 * preview parses and says so. Holding the whole of it cost Chromium ~0.4–0.6 s of layout per
 * keystroke (measured, not asserted here: no timed assertions in tests).
 */
test("a 3 MB sample is cut to what the preview reads, and the editor says so", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("button", { name: "Edit custom dialects" }).click();
  const editor = page.getByRole("dialog", { name: "Dialect editor" });
  const sample = editor.getByLabel("Sample model output");
  const big = `<think>${"plan the work; ".repeat(200_000)}</think>`;
  // As a paste arrives: one input event carrying the whole text.
  await sample.evaluate((element, text) => {
    const area = element as HTMLTextAreaElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
    setter?.call(area, text);
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }, big);
  await expect(editor.getByRole("status")).toContainText(
    `first 20,000 of ${big.length.toLocaleString("en-US")} characters`,
  );
  expect(await sample.evaluate((element) => (element as HTMLTextAreaElement).value.length)).toBe(
    20_000,
  );
  // The preview still reads it: one think event, from the sample's start.
  await expect(
    editor.getByRole("list", { name: "Events" }).getByText("think", { exact: true }),
  ).toBeVisible();
  // Typing into the cut sample keeps each key where it was typed (it was cut again, the caret
  // sent to the end and the last character dropped).
  await sample.evaluate((element) => (element as HTMLTextAreaElement).setSelectionRange(5, 5));
  await sample.pressSequentially("ZY");
  const typed = await sample.evaluate((element) => {
    const area = element as HTMLTextAreaElement;
    return { length: area.value.length, at: area.value.slice(5, 7), caret: area.selectionStart };
  });
  expect(typed).toEqual({ length: 20_002, at: "ZY", caret: 7 });
  await sample.press("Control+a");
  await sample.press("Delete");
  await sample.pressSequentially("Hello");
  await expect(editor.getByRole("status")).toHaveCount(0);
  await expect(sample).toHaveValue("Hello");
});
