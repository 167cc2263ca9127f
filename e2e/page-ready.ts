import type { Page } from "@playwright/test";

/** Where the page keeps the user's preferences (`state/preferences.ts`). */
export const PREFERENCES = "wirescope:preferences";

/**
 * Waits for React to hydrate the composer: the page's key shortcuts are listened for from
 * then on (a key pressed before, on a busy machine, reaches nothing).
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
}

/** Opens the playground with `values` as the saved preferences, hydrated. */
export async function seedPreferences(page: Page, values: Record<string, unknown>): Promise<void> {
  await page.goto("/");
  await page.evaluate(([key, stored]) => localStorage.setItem(key, stored), [
    PREFERENCES,
    JSON.stringify({ version: 1, values }),
  ] as const);
  await page.reload();
  await hydrated(page);
}
