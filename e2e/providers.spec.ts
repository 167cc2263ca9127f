import { expect, type Page, test } from "@playwright/test";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "../lib/providers/testing/fake-provider-server";

/**
 * A run through a real provider package end to end: the production server's
 * OpenAI-compatible provider (`WIRESCOPE_COMPAT_BASE_URL`, set in playwright.config.ts)
 * talks to the fake provider server this spec starts on that fixed loopback port.
 */
const FAKE_PORT = Number(process.env.WIRESCOPE_E2E_FAKE_PORT ?? 3199);
let fake: FakeProviderServer;

test.beforeAll(async () => {
  fake = await startFakeProviderServer({ port: FAKE_PORT });
});

test.afterAll(async () => {
  await fake.close();
});

interface RunRecord {
  kind: string;
  event?: { type: string; code?: string; message?: string; payload?: { status: string } };
  provider?: string;
}

/** The JSON records of an SSE body (one `data:` line each). */
function recordsOf(body: string): RunRecord[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as RunRecord);
}

/** A run of "list the files" on the compat provider's `model`, started by the page's own fetch. */
async function runFromPage(page: Page, model: string): Promise<string> {
  await page.goto("/api/models");
  return page.evaluate(async (id) => {
    const response = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: "list the files",
        dialect: "xml",
        model: { provider: "compat", id },
      }),
    });
    return response.text();
  }, model);
}

test("lists the configured OpenAI-compatible server and its models", async ({ request }) => {
  const response = await request.get("/api/models");
  expect(response.ok()).toBe(true);
  const { providers } = (await response.json()) as {
    providers: {
      id: string;
      configured: boolean;
      models: { id: string; source: string; priced: boolean }[];
    }[];
  };
  const compat = providers.find((provider) => provider.id === "compat");
  expect(compat?.configured).toBe(true);
  // No table prices a compatible server's own model (unless WIRESCOPE_PRICES does).
  expect(compat?.models).toContainEqual({ id: "scripted", source: "server", priced: false });
});

test("runs an agent through the compat provider from the page", async ({ page }) => {
  const body = await runFromPage(page, "scripted");
  const records = recordsOf(body);
  expect(records[0]?.kind).toBe("run");
  expect(records.find((record) => record.kind === "request")?.provider).toBe("compat");
  expect(records.some((record) => record.kind === "chunk")).toBe(true);
  const events = records.flatMap((record) => (record.event === undefined ? [] : [record.event]));
  expect(events.find((event) => event.type === "result")?.payload?.status).toBe("success");
  expect(events.some((event) => event.type === "respond")).toBe(true);
  expect(events.filter((event) => event.type === "error")).toEqual([]);
  expect(fake.requests.some((received) => received.path === "/v1/chat/completions")).toBe(true);
});

test("a provider failure arrives as an error event and the stream ends", async ({ request }) => {
  const response = await request.post("/api/runs", {
    data: {
      message: "list the files",
      dialect: "xml",
      model: { provider: "compat", id: "fail-429" },
    },
  });
  expect(response.status()).toBe(200);
  const events = recordsOf(await response.text()).flatMap((record) =>
    record.event === undefined ? [] : [record.event],
  );
  const last = events.at(-1);
  expect(last?.type).toBe("error");
  expect(last?.code).toBe("provider");
  expect(last?.message).toMatch(/rate limiting.*HTTP 429.*Wait 7 s/);
});

test("input a prompt cache served is shown and priced at its own rate", async ({ page }) => {
  const body = await runFromPage(page, "cached");
  const transcriptId = (recordsOf(body)[0] as RunRecord & { transcriptId: string }).transcriptId;
  const metrics = recordsOf(body).flatMap((record) =>
    record.event?.type === "metric" ? [record.event as unknown as MetricLike] : [],
  );
  expect(metrics.length).toBeGreaterThan(0);
  for (const metric of metrics)
    expect(metric.step.cacheRead).toBe(Math.floor(metric.step.input * 0.75));

  await page.goto(`/t/${transcriptId}`);
  const header = page.getByTestId("run-summary");
  const value = async (name: string) =>
    Number(await header.locator(`[data-stat="${name}"]`).getAttribute("data-value"));
  await expect(header.locator('[data-stat="cacheRead"]')).toContainText("cached");
  const cached = metrics.reduce((total, metric) => total + (metric.step.cacheRead ?? 0), 0);
  expect(await value("cacheRead")).toBe(cached);

  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Run settings" });
  await dialog
    .getByLabel("Prices (USD per million tokens)")
    .fill('{"compat/cached": {"input": 1000, "output": 2000, "cacheRead": 100}}');
  await dialog.getByRole("button", { name: "Close" }).click();
  const tokensIn = await value("tokensIn");
  const expected =
    ((tokensIn - cached) * 1000 + cached * 100 + (await value("tokensOut")) * 2000) / 1e6;
  await expect.poll(() => value("cost")).toBeCloseTo(expected, 9);
  await header.getByRole("button", { name: "Per turn" }).click();
  await expect(
    page.getByTestId("per-turn").getByRole("columnheader", { name: "cached" }),
  ).toBeVisible();
});

interface MetricLike {
  step: { input: number; cacheRead?: number };
}
