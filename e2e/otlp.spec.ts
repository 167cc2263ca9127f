import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

/**
 * The export menu's OpenTelemetry item: after a demo run, "OTLP traces" downloads an OTLP/JSON
 * trace request whose spans nest run → model turn → tool call, and the open menu passes axe.
 */
test("the export menu downloads a run as OTLP traces", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Demo pace (ms)").fill("0");
  await page
    .getByRole("dialog", { name: "Run settings" })
    .getByRole("button", { name: "Close" })
    .click();
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByTestId("timeline").locator("[data-event-type=respond]")).toBeVisible();
  const header = page.getByTestId("transcript-header");
  await expect(header).toBeVisible();
  await header.getByRole("button", { name: "Export" }).click();
  const menu = page.getByRole("menu", { name: "Export" });
  await expect(menu.getByRole("menuitem", { name: /OTLP traces/ })).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('[role="menu"]').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  await menu.getByRole("menuitemcheckbox", { name: /Content and raw wire text/ }).check();
  const download = page.waitForEvent("download");
  await menu.getByRole("menuitem", { name: /OTLP traces/ }).click();
  const file = testInfo.outputPath("run.otlp.json");
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/\.otlp\.json$/);
  await saved.saveAs(file);
  const body = JSON.parse(await readFile(file, "utf8")) as {
    resourceSpans: {
      scopeSpans: { spans: { spanId: string; parentSpanId?: string; name: string }[] }[];
    }[];
  };
  const spans = body.resourceSpans.flatMap((resource) =>
    resource.scopeSpans.flatMap((scope) => scope.spans),
  );
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const parentName = (name: RegExp) => {
    const span = spans.find((candidate) => name.test(candidate.name));
    return span?.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId)?.name;
  };
  expect(parentName(/^chat /)).toBe("invoke_agent wirescope");
  expect(parentName(/^execute_tool list$/)).toMatch(/^chat /);
  expect(JSON.stringify(body)).toContain("wirescope.wire.text");
});
