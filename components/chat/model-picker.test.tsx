// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { ModelPicker } from "./model-picker";

const LISTING = {
  providers: [
    {
      id: "openai",
      label: "OpenAI",
      configured: true,
      freeText: true,
      models: [
        { id: "gpt-5.4", source: "suggested" },
        { id: "gpt-6-sol", source: "suggested" },
      ],
    },
  ],
};

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) =>
      Response.json(
        url === "/api/models"
          ? LISTING
          : { prices: { prices: {}, error: null, shippedDate: "2026-11-23" } },
      ),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  usePlayground.setState({ prices: {} });
});

async function openPicker(): Promise<void> {
  render(<ModelPicker disabled={false} />);
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { expanded: false }));
  });
  await screen.findByRole("button", { name: /gpt-6-sol/ });
}

describe("ModelPicker", () => {
  it("says which suggested models have no price, before a run does", async () => {
    await openPicker();
    expect(screen.getByRole("button", { name: /gpt-6-sol/ }).textContent).toContain(
      "no price known",
    );
    expect(screen.getByRole("button", { name: /gpt-5\.4/ }).textContent).not.toContain(
      "no price known",
    );
  });

  it("counts the user's own prices", async () => {
    usePlayground.setState({ prices: { "openai/gpt-6-sol": { input: 1, output: 2 } } });
    await openPicker();
    expect(screen.getByRole("button", { name: /gpt-6-sol/ }).textContent).not.toContain(
      "no price known",
    );
  });
});
