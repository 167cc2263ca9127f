import { expect, type Page, test } from "@playwright/test";
import type { TranscriptRecord } from "../lib/protocol";
import { importRecords } from "./import-records";

/**
 * The Request tab on a long conversation: a request of 240 messages lists every one (screen
 * readers get the real count, the text of each is in the page, each is reachable by Tab), but
 * highlights only those near the view; the turn picker switches between such requests.
 */
const TURNS = 4;
const LAST_MESSAGES = 240;

const messageText = (index: number) =>
  `message ${index} says:\n${Array.from({ length: 6 }, (_, line) => `<think>line ${line} of message ${index}</think>`).join("\n")}`;

function records(): (TranscriptRecord & { runId: string })[] {
  const out: (TranscriptRecord & { runId: string })[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const count = LAST_MESSAGES - 2 * (TURNS - 1 - turn);
    const messages = [
      { role: "system", content: "You write a text protocol." },
      ...Array.from({ length: count - 1 }, (_, index) => ({
        role: index % 2 === 0 ? "user" : "assistant",
        content: messageText(index + 1),
      })),
    ];
    const runId = `r${turn}`;
    out.push({
      kind: "event",
      runId,
      event: { type: "user", id: `u${turn}`, timestamp: 0, content: `question ${turn}` },
    });
    out.push({
      kind: "request",
      runId,
      turn,
      t: 1,
      provider: "demo",
      model: "demo",
      settings: {},
      messages,
    });
    out.push({ kind: "chunk", runId, turn, t: 2, text: `answer ${turn}` });
  }
  return out;
}

const importConversation = (page: Page) =>
  importRecords(page, { id: "long-request", title: "Long requests" }, records());

test("a request of 240 messages lists them all, highlights those in view, and switches turns", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importConversation(page);
  await page.goto(`/t/${id}`);
  await page.getByRole("tab", { name: /^Request/ }).click();
  const view = page.locator(`[data-request-view="${TURNS - 1}"]`);
  await expect(view).toContainText(`${LAST_MESSAGES} messages`);
  const list = view.getByRole("list", { name: "Messages" });
  await expect(list.getByRole("listitem")).toHaveCount(LAST_MESSAGES);
  // Every message's text is in the page, the last one too, far below the view.
  await expect(list.getByRole("listitem").last()).toContainText(
    `line 5 of message ${LAST_MESSAGES - 1}`,
  );
  // Only those near the view are highlighted.
  const highlighted = list.locator("pre[data-highlighted]");
  await expect(highlighted.first()).toBeVisible();
  expect(await highlighted.count()).toBeLessThan(40);
  await expect(list.getByRole("listitem").last().locator("pre[data-highlighted]")).toHaveCount(0);

  // By keyboard: Tab goes from message to message, past those drawn at first; the one reached
  // scrolls into view and is highlighted there.
  const items = list.getByRole("listitem");
  await items.first().getByRole("button").focus();
  const far = 30;
  await expect(items.nth(far).locator("pre[data-highlighted]")).toHaveCount(0);
  for (let step = 0; step < far; step++) await page.keyboard.press("Tab");
  const reached = items.nth(far).getByRole("button");
  await expect(reached).toBeFocused();
  await expect(reached).toBeInViewport();
  await expect(items.nth(far).locator("pre[data-highlighted]")).toHaveCount(1);

  // The turn picker: the turn before shows its own, shorter request, whole.
  await page.getByRole("button", { name: `turn ${TURNS - 2}` }).click();
  const before = page.locator(`[data-request-view="${TURNS - 2}"]`);
  await expect(before).toContainText(`${LAST_MESSAGES - 2} messages`);
  await expect(before.getByRole("listitem")).toHaveCount(LAST_MESSAGES - 2);
  await expect(before.getByRole("listitem").last()).toContainText(
    `line 5 of message ${LAST_MESSAGES - 3}`,
  );
});
