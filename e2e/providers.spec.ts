import { expect, test } from "@playwright/test";
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

test("lists the configured OpenAI-compatible server and its models", async ({ request }) => {
  const response = await request.get("/api/models");
  expect(response.ok()).toBe(true);
  const { providers } = (await response.json()) as {
    providers: { id: string; configured: boolean; models: { id: string; source: string }[] }[];
  };
  const compat = providers.find((provider) => provider.id === "compat");
  expect(compat?.configured).toBe(true);
  expect(compat?.models).toContainEqual({ id: "scripted", source: "server" });
});

test("runs an agent through the compat provider from the page", async ({ page }) => {
  await page.goto("/api/models");
  const body = await page.evaluate(async () => {
    const response = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: "list the files",
        dialect: "xml",
        model: { provider: "compat", id: "scripted" },
      }),
    });
    return response.text();
  });
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
