import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { hydrated } from "./page-ready";

/**
 * The model picker says why a server's own model list is missing: a compatible server that is
 * down, or refuses the key, used to show its section with no models and no word about it.
 * `GET /api/models` is answered here, so the spec does not depend on what runs on the machine.
 */
const LISTING = {
  providers: [
    {
      id: "demo",
      label: "Demo (scripted, offline)",
      configured: true,
      defaultModel: "scripted",
      models: [{ id: "scripted", source: "builtin" }],
      freeText: false,
    },
    {
      id: "compat",
      label: "My vLLM",
      configured: true,
      baseURL: "http://10.0.0.9:8000/v1",
      models: [],
      freeText: true,
      error: "http://10.0.0.9:8000/v1 answered HTTP 401 when asked for models.",
    },
    {
      id: "ollama",
      label: "Ollama (local)",
      configured: true,
      baseURL: "http://127.0.0.1:11434/v1",
      models: [{ id: "qwen3:8b", source: "server" }],
      freeText: true,
    },
  ],
};

for (const colorScheme of ["dark", "light"] as const) {
  test(`the picker names why a server listed no models (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.route("**/api/models", (route) => route.fulfill({ json: LISTING }));
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("button", { name: /Demo \(scripted, offline\)/ }).click();
    const picker = page.getByRole("dialog", { name: "Choose a model" });
    await expect(
      picker.getByText(
        "No model list: http://10.0.0.9:8000/v1 answered HTTP 401 when asked for models.",
      ),
    ).toBeVisible();
    // A server that answered lists its models and no complaint.
    await expect(picker.getByRole("button", { name: /qwen3:8b/ })).toBeVisible();
    await expect(picker.getByText(/No model list/)).toHaveCount(1);
    // The id can still be typed for the server whose list is missing.
    await picker.getByLabel("Model id for My vLLM").fill("my-model");
    await picker.getByLabel("Model id for My vLLM").press("Enter");
    await expect(page.getByRole("button", { name: /My vLLM · my-model/ })).toBeVisible();
    await page.getByRole("button", { name: /My vLLM · my-model/ }).click();
    const results = await new AxeBuilder({ page })
      .include('[aria-label="Choose a model"]')
      .analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious.map((violation) => violation.id)).toEqual([]);
  });
}
