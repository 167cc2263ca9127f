import { expect, type Page } from "@playwright/test";

/**
 * Imports `records` as a new `xml` transcript on the demo model (`id` made unique with the
 * time) and returns the id the server gave it: a long transcript in one request, not by running.
 */
export async function importRecords(
  page: Page,
  { id, title }: { id: string; title: string },
  records: readonly unknown[],
): Promise<string> {
  const header = {
    format: "wirescope-transcript",
    version: 1,
    id: `${id}-${Date.now()}`,
    title,
    created: Date.now(),
    dialect: "xml",
    model: { provider: "demo", id: "demo" },
    system: "",
    tools: [],
  };
  const response = await page.request.post("/api/transcripts/import", {
    headers: { "content-type": "application/x-ndjson" },
    data: `${[header, ...records].map((line) => JSON.stringify(line)).join("\n")}\n`,
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { transcript: { id: string } }).transcript.id;
}
