import { expect, type Page, test } from "@playwright/test";

/**
 * The hermes dialect and user-defined dialects in the page (docs/dialects/hermes.md, docs/dialects/custom.md), on the demo
 * model: a hermes run with its wire and its <tool_response> request; the dialect editor's
 * field errors and live preview; a saved definition that runs, stays listed after a reload,
 * and is recorded with its transcript. Screenshots go to test-results/.
 */
const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();
const switcher = (page: Page) => page.getByRole("group", { name: "Dialect" });
const rawTurn = (page: Page, turn: number) =>
  page.locator(`[data-raw-turn="${turn}"] [data-raw-text]`);

async function open(page: Page) {
  await page.goto("/");
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
}

async function send(page: Page, message: string) {
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
}

async function debugOpen(page: Page) {
  const button = page.getByRole("button", { name: "Debug", exact: true });
  if ((await button.getAttribute("aria-pressed")) !== "true") await button.click();
}

test("hermes: <tool_call> on the wire, one <tool_response> per call back in the request", async ({
  page,
}) => {
  await open(page);
  await switcher(page).getByText("hermes", { exact: true }).click();
  await send(page, "list the files");
  await idle(page);
  await expect(
    page.getByTestId("timeline").locator("[data-event-type=call]").first(),
  ).toContainText("list");
  await debugOpen(page);
  await expect(rawTurn(page, 0)).toContainText(
    /<tool_call>\s*\{"name":"list","arguments":\{"path":"\."\}\}\s*<\/tool_call>/,
  );
  await page.getByRole("tab", { name: /^Request/ }).click();
  const view = page.locator("[data-request-view]");
  await expect(view).toHaveAttribute("data-request-view", "1");
  await expect(view.locator("[data-request-message=user]").last()).toContainText(
    /<tool_response>\s*\{"name":"list","content":/,
  );
  await page.screenshot({ path: "test-results/dialects-hermes.png" });
});

test("the dialect editor: field errors, live preview, save and use, kept after a reload", async ({
  page,
}) => {
  await open(page);
  await page.getByRole("button", { name: "Edit custom dialects" }).click();
  const editor = page.getByRole("dialog", { name: "Dialect editor" });
  await editor.getByLabel("Start from").selectOption("hermes");
  await editor.getByLabel("Name", { exact: true }).fill("reasoner");
  await editor.getByLabel("think open").fill("<reasoning>");
  await editor.getByLabel("think close").fill("</reasoning>");
  await editor.getByLabel("call open").fill("<tool>");
  await editor.getByLabel("call close").fill("<tool");
  await expect(editor.getByRole("alert")).toContainText("one is a prefix of the other");
  await expect(editor.getByRole("button", { name: "Save and use" })).toBeDisabled();
  await editor.getByLabel("call close").fill("</tool>");
  await editor.getByLabel("tool name").fill("tool");
  await editor.getByLabel("arguments", { exact: true }).fill("input");
  await editor.getByRole("button", { name: "Reset to the example" }).click();
  const events = editor.getByRole("list", { name: "Events" });
  await expect(events.getByRole("listitem")).toHaveText([
    /^think.*I should list the files/,
    /^call\s*list \{"path":"\."\}/,
    /^call\s*read/,
    /^respond/,
    /^execute/,
  ]);
  // A pasted sample with a broken call shows the error with its span.
  await editor.getByLabel("Sample model output").fill('<tool>{"tool": "ls"}</tool>');
  await expect(events.getByRole("listitem").first()).toContainText("invalid_call");
  await expect(events.getByRole("listitem").first()).toContainText("0–27");
  await page.screenshot({ path: "test-results/dialects-editor.png" });
  await editor.getByRole("button", { name: "Save and use" }).click();

  await expect(switcher(page).getByRole("radio", { name: "reasoner" })).toBeChecked();
  await send(page, "list the files");
  await idle(page);
  await debugOpen(page);
  await expect(rawTurn(page, 0)).toContainText(
    /<tool>\s*\{"tool":"list","input":\{"path":"\."\}\}\s*<\/tool>/,
  );
  await expect(
    page.getByTestId("timeline").locator("[data-event-type=respond]").last(),
  ).toContainText("list found 4 entries");
  await page.screenshot({ path: "test-results/dialects-custom-run.png" });

  await page.reload();
  await expect(switcher(page).getByRole("radio", { name: "reasoner" })).toBeVisible();
});
