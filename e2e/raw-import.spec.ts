import { writeFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";

/**
 * Importing a model's raw wire text (a `.txt` copied from a log) by the file picker: the
 * server detects hermes from its `<tool_call>`, the toast says so and why, the timeline shows
 * the call card and Raw shows the text. Screenshots go to test-results/.
 */
const HERMES = `<think>The user wants the files listed.</think>
<tool_call>
{"name": "list", "arguments": {"path": "."}}
</tool_call>
`;

async function open(page: Page) {
  await page.goto("/");
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
}

async function debugOpen(page: Page) {
  const button = page.getByRole("button", { name: "Debug", exact: true });
  if ((await button.getAttribute("aria-pressed")) !== "true") await button.click();
}

test("a raw hermes .txt imports by the picker: toast names hermes, call card, Raw text", async ({
  page,
}, info) => {
  const path = info.outputPath("ollama-answer.txt");
  await writeFile(path, HERMES);
  await open(page);
  await page.getByTestId("import-input").setInputFiles(path);

  const notice = page.getByTestId("notice");
  await expect(notice).toContainText('Imported "ollama-answer.txt" as hermes');
  await expect(notice).toContainText("<tool_call> at offset 48 is a hermes marker");
  await expect(page).toHaveURL(/\/t\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId("imported-from")).toHaveText("imported from raw text (hermes)");

  const timeline = page.getByTestId("timeline");
  await expect(timeline.locator("[data-event-type=call]")).toHaveCount(1);
  await expect(timeline.locator("[data-event-type=call]")).toContainText("list");
  await expect(timeline.locator("[data-event-type=think]")).toContainText(
    "The user wants the files listed.",
  );

  await debugOpen(page);
  const raw = page.locator('[data-raw-turn="0"] [data-raw-text]');
  await expect(raw).toContainText(
    /<tool_call>\s*\{"name": "list", "arguments": \{"path": "\."\}\}/,
  );
  await expect(raw).toContainText("<think>The user wants the files listed.</think>");
  await page.screenshot({ path: "test-results/raw-import-hermes.png" });
});
