import { readFile, writeFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";

/**
 * Saved transcripts on the demo model: a run gets its own URL and survives a reload, opens
 * from the sidebar, replays through the current parser (4×, step back), exports and imports
 * back to the same events, forks with a mocked tool result, and refuses a bad file naming
 * its line. Screenshots go to test-results/.
 */

const timeline = (page: Page) => page.getByTestId("timeline");
const cards = (page: Page) => timeline(page).locator("[data-event-id]");
const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();
const header = (page: Page) => page.getByTestId("transcript-header");
const TRANSCRIPT_URL = /\/t\/[A-Za-z0-9_-]+$/;

async function setPace(page: Page, ms: number) {
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Demo pace (ms)").fill(String(ms));
  await page
    .getByRole("dialog", { name: "Run settings" })
    .getByRole("button", { name: "Close" })
    .click();
}

async function run(page: Page, message: string, pace = 0): Promise<string> {
  await page.goto("/");
  await setPace(page, pace);
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await expect(timeline(page).locator("[data-event-type=respond]")).toBeVisible();
  await idle(page);
  await expect(page).toHaveURL(TRANSCRIPT_URL);
  // The stored copy (for replay, fork, export) loads once the run has ended.
  await expect(header(page)).toBeVisible();
  return idOf(page);
}

const idOf = (page: Page) => new URL(page.url()).pathname.split("/").at(-1) ?? "";

/** What the timeline shows: each top-level card's type and text. */
const shown = (page: Page) =>
  cards(page).evaluateAll((elements) =>
    elements
      .filter((element) => element.parentElement?.closest("[data-event-id]") === null)
      .map((element) => `${element.getAttribute("data-event-type")}`),
  );

/** A transcript's events as stored, without ids and times: what must survive a round trip. */
async function storedEvents(page: Page, id: string) {
  const response = await page.request.get(`/api/transcripts/${id}`);
  expect(response.ok()).toBe(true);
  const { records } = (await response.json()) as { records: Record<string, unknown>[] };
  return records.map(({ seq: _seq, ...record }) => record);
}

async function exportJsonl(page: Page, path: string): Promise<string> {
  await header(page).getByRole("button", { name: "Export" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: /JSONL/ }).click();
  await (await download).saveAs(path);
  return readFile(path, "utf8");
}

/** Drops a file on the page, as a user dragging it from their desktop does. */
async function dropFile(page: Page, name: string, text: string) {
  await page.evaluate(
    ([fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content ?? ""], fileName ?? "x.jsonl"));
      for (const type of ["dragenter", "dragover", "drop"])
        document.body.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
    },
    [name, text],
  );
}

test("a run gets its own URL, survives a reload, opens from the sidebar and replays", async ({
  page,
}) => {
  const id = await run(page, "list the files", 10);
  const live = await shown(page);
  expect(live).toContain("call");

  await page.reload();
  await expect(header(page)).toContainText("list the files");
  await expect.poll(() => shown(page)).toEqual(live);

  // From a blank page, the sidebar opens it again.
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("timeline-empty")).toBeVisible();
  await page.locator(`[data-transcript-id="${id}"] button`).first().click();
  await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
  await expect.poll(() => shown(page)).toEqual(live);
  await expect(page.locator(`[data-transcript-id="${id}"]`)).toHaveAttribute(
    "aria-current",
    "page",
  );

  // Replay at 4×: the timeline rebuilds from nothing to the same cards.
  const bar = page.getByTestId("replay-bar");
  await bar.getByLabel("Replay speed").selectOption("4");
  await bar.getByRole("button", { name: "Play", exact: true }).click();
  await expect(bar.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await expect.poll(() => shown(page)).toEqual(live);
  await expect(page.getByTestId("replay-diffs")).toHaveCount(0);
  await expect(bar.getByTestId("replay-time")).toHaveText(
    (await bar.getByTestId("replay-duration").textContent()) ?? "",
  );
  await page.screenshot({ path: "test-results/transcripts-replay-dark.png" });

  // Step back takes the last event away; step forward brings it back.
  const before = await cards(page).count();
  await bar.getByRole("button", { name: "Step back" }).click();
  await expect(cards(page)).toHaveCount(before - 1);
  await bar.getByRole("button", { name: "Step back" }).click();
  await expect(cards(page)).toHaveCount(before - 2);
  await bar.getByRole("button", { name: "Step forward" }).click();
  await expect(cards(page)).toHaveCount(before - 1);
  // Seeking to the start leaves only what happened at 0: the user's message.
  await bar.getByTestId("replay-scrubber").press("Home");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page)).toHaveAttribute("data-event-type", "user");
  await expect(bar.locator("[data-tone=call]")).toHaveCount(1);
  await bar.getByRole("button", { name: "Exit replay" }).click();
  await expect.poll(() => shown(page)).toEqual(live);

  // The composer continues this conversation, in the same transcript.
  await page.getByLabel("Message").fill("what is 2+2");
  await page.getByLabel("Message").press("Enter");
  await expect(cards(page).filter({ hasText: "what is 2+2" })).toBeVisible();
  await idle(page);
  await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
  await expect(cards(page).filter({ hasText: "list the files" })).toBeVisible();
});

test("export JSONL, import it back, and get the same events", async ({ page }, info) => {
  const id = await run(page, "list the files");
  const live = await shown(page);
  const path = info.outputPath("exported.jsonl");
  const text = await exportJsonl(page, path);
  expect(text.split("\n")[0]).toContain('"format":"wirescope-transcript"');

  await page.getByTestId("import-input").setInputFiles(path);
  await expect(page.getByTestId("imported-from")).toBeVisible();
  const imported = idOf(page);
  expect(imported).not.toBe(id);
  await expect.poll(() => shown(page)).toEqual(live);
  expect(await storedEvents(page, imported)).toEqual(await storedEvents(page, id));
  await expect(page.getByTestId("notice")).toContainText("Imported");

  // Rename in place, find it by search, delete it, undo.
  const item = page.locator(`[data-transcript-id="${imported}"]`);
  await item.hover();
  await item.getByRole("button", { name: /^Rename/ }).click();
  const title = `imported ${Date.now()}`;
  await item.getByLabel("Title").fill(title);
  await item.getByLabel("Title").press("Enter");
  await expect(header(page).getByRole("heading")).toHaveText(title);
  await page.getByLabel("Search transcripts").fill(title);
  await expect(page.getByTestId("transcript-item")).toHaveCount(1);
  await item.hover();
  await item.getByRole("button", { name: /^Delete/ }).click();
  await expect(page.getByTestId("transcript-item")).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await page.getByTestId("notice").getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("transcript-item")).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`/t/${imported}$`));
});

test("a replay shows where today's parser differs from the recording", async ({ page }, info) => {
  await run(page, "list the files");
  const text = await exportJsonl(page, info.outputPath("original.jsonl"));
  // Pretend an older parser had recorded other words than the raw text holds.
  const lines = text.split("\n");
  const at = lines.findIndex((line) => /"type":"respond".*"content":"[^"]/.test(line));
  lines[at] = (lines[at] ?? "").replace('"content":"', '"content":"TAMPERED ');
  const tampered = lines.join("\n");
  expect(tampered).not.toBe(text);
  await dropFile(page, "tampered.jsonl", tampered);
  await expect(page.getByTestId("imported-from")).toBeVisible();
  const notice = page.getByTestId("replay-diffs");
  await expect(notice).toContainText("1 difference from the recorded run");
  await notice.getByRole("button", { expanded: false }).first().click();
  const diff = notice.getByTestId("replay-diff");
  await expect(diff).toContainText("respond");
  await expect(diff).toContainText("changed: content");
  await diff.getByRole("button").click();
  await expect(diff.getByText(/TAMPERED/)).toBeVisible();
  await expect(diff.getByText("Re-parsed now")).toBeVisible();
  await page.screenshot({ path: "test-results/transcripts-diffs-dark.png" });
  await page.getByRole("button", { name: /light theme/ }).click();
  await page.screenshot({ path: "test-results/transcripts-diffs-light.png" });
});

test("fork with an edited tool result and continue; the original stays", async ({ page }) => {
  const id = await run(page, "list the files");
  const original = await storedEvents(page, id);

  await timeline(page).locator("[data-event-type=call]").first().click();
  await header(page).getByRole("button", { name: "Fork…" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork" });
  await expect(dialog.getByLabel("Mock the result")).toBeChecked();
  await dialog
    .getByRole("textbox")
    .fill('{"path":".","entries":[{"path":"MOCKED.md","type":"file","size":1}]}');
  await dialog.getByRole("button", { name: "Fork and run" }).click();

  await expect(timeline(page).locator("[data-event-type=respond]")).toContainText(
    "found 1 entry: MOCKED.md",
  );
  await idle(page);
  expect(idOf(page)).not.toBe(id);
  const link = page.getByTestId("forked-from");
  await expect(link).toContainText("forked from list the files");
  await expect(timeline(page).getByTestId("call-outcome")).toContainText("Mock result");
  await page.screenshot({ path: "test-results/transcripts-fork-dark.png" });
  expect(await storedEvents(page, id)).toEqual(original);

  // The link goes back to the original, untouched.
  await link.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
  await expect(timeline(page).locator("[data-event-type=respond]")).toContainText("README.md");
});

test("fork from a user message by its context menu, editing the message", async ({ page }) => {
  await run(page, "list the files");
  await timeline(page).locator("[data-event-type=user]").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Fork from here…" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork" });
  await expect(dialog.getByRole("textbox")).toHaveValue("list the files");
  await dialog.getByRole("textbox").fill("what is 2+2");
  await dialog.getByRole("button", { name: "Fork and run" }).click();
  await expect(timeline(page).locator("[data-event-type=user]")).toHaveText("what is 2+2");
  await idle(page);
  await expect(page.getByTestId("forked-from")).toBeVisible();
  await expect(timeline(page).locator("[data-event-type=user]")).toHaveCount(1);
});

test("a regression run replays the recorded model output with live tools", async ({ page }) => {
  const id = await run(page, "list the files");
  const answer = await timeline(page).locator("[data-event-type=respond]").textContent();
  await header(page).getByRole("button", { name: "Re-run with replay model" }).click();
  await expect(page.getByTestId("replay-of")).toContainText("replay of list the files");
  await idle(page);
  expect(idOf(page)).not.toBe(id);
  await expect(timeline(page).locator("[data-event-type=respond]")).toHaveText(answer ?? "");
  await expect(timeline(page).getByTestId("call-outcome")).toContainText("Listed");
  await expect(header(page).getByRole("heading")).toHaveText("list the files · replay");
});

test("a bad file is refused, naming its first bad line", async ({ page }, info) => {
  await run(page, "what is 2+2");
  const text = await exportJsonl(page, info.outputPath("good.jsonl"));
  const [headerLine] = text.split("\n");
  const bad = `${headerLine}\n{"kind":"event","event":{"type":"bogus","id":"x","timestamp":0}}\n`;
  const path = info.outputPath("bad.jsonl");
  await writeFile(path, bad);
  await page.getByTestId("import-input").setInputFiles(path);
  const notice = page.getByRole("alert").filter({ hasText: "Could not import" });
  await expect(notice).toContainText("bad.jsonl");
  await expect(notice).toContainText("line 2");
  await page.screenshot({ path: "test-results/transcripts-bad-import-dark.png" });

  await dropFile(page, "not-json.jsonl", "this is not a transcript\n");
  await expect(page.getByRole("alert").filter({ hasText: "not-json.jsonl" })).toContainText(
    "line 1",
  );
});

test("a saved conversation with no events says so instead of showing a blank timeline", async ({
  page,
}) => {
  const header = {
    format: "wirescope-transcript",
    version: 1,
    id: `empty-${Date.now()}`,
    title: "Nothing in it",
    created: Date.now(),
    dialect: "xml",
    model: { provider: "demo", id: "scripted" },
    system: "",
    tools: [],
  };
  const imported = await page.request.post("/api/transcripts/import", {
    headers: { "content-type": "application/x-ndjson" },
    data: `${JSON.stringify(header)}\n`,
  });
  expect(imported.status()).toBe(201);
  const { transcript } = (await imported.json()) as { transcript: { id: string } };
  await page.goto(`/t/${transcript.id}`);
  await expect(page.getByTestId("timeline-empty-saved")).toContainText("no events yet");
});
