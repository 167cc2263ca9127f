// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunAgainDialog } from "@/components/compare/run-again-dialog";
import type { TranscriptMeta } from "@/lib/store/store";
import { ForkDialog } from "./fork-dialog";

/** Recorded in a user-defined dialect (its family's built-in is `xml`). */
const META: TranscriptMeta = {
  id: "t1",
  title: "Recorded",
  createdAt: 0,
  updatedAt: 0,
  dialect: "xml",
  definition: {
    name: "my-tags",
    family: "tags",
    think: ["<t>", "</t>"],
    batch: ["<b>", "</b>"],
    results: ["<r>", "</r>"],
  },
  model: { provider: "demo", id: "scripted" },
  system: "",
  tools: [],
  source: "playground",
};

const PROVIDERS = [
  {
    id: "demo",
    label: "Demo",
    configured: true,
    defaultModel: "scripted",
    models: [],
    freeText: false,
  },
  {
    id: "openai",
    label: "OpenAI",
    configured: true,
    defaultModel: "gpt-4.1",
    models: [],
    freeText: true,
  },
  { id: "google", label: "Google", configured: false, models: [], freeText: true },
];

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ providers: PROVIDERS })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dialogs = {
  fork: () => (
    <ForkDialog
      transcript={{ meta: META, records: [] }}
      target={{ kind: "end", at: 0 }}
      onClose={() => {}}
    />
  ),
  "run again": () => <RunAgainDialog meta={META} onClose={() => {}} />,
};

describe.each(Object.entries(dialogs))("the %s dialog's run target", (_name, dialog) => {
  it("names the recorded dialect and model, and offers the configured providers", async () => {
    render(dialog());
    const fields = within(screen.getByTestId("run-target-fields"));
    const dialect = fields.getByLabelText("Dialect") as HTMLSelectElement;
    expect(dialect.selectedOptions[0]?.textContent).toBe("as recorded (my-tags)");
    const model = fields.getByLabelText("Model") as HTMLSelectElement;
    await waitFor(() => expect(model.options).toHaveLength(3));
    expect([...model.options].map((option) => option.textContent)).toEqual([
      "as recorded (demo)",
      "Demo",
      "OpenAI",
    ]);
  });

  it("fills in a picked provider's default model id", async () => {
    render(dialog());
    const fields = within(screen.getByTestId("run-target-fields"));
    const model = fields.getByLabelText("Model") as HTMLSelectElement;
    await waitFor(() => expect(model.options).toHaveLength(3));
    expect(fields.queryByLabelText("Model id")).toBeNull();
    fireEvent.change(model, { target: { value: "openai" } });
    expect(fields.getByLabelText("Model id")).toHaveProperty("value", "gpt-4.1");
  });
});

describe.each(Object.entries(dialogs))("the %s dialog is modal", (_name, dialog) => {
  it("keeps Tab inside: from its last control to its first, and back with Shift+Tab", async () => {
    render(dialog());
    const box = screen.getByRole("dialog");
    expect(box.getAttribute("aria-modal")).toBe("true");
    await waitFor(() => expect(box.contains(document.activeElement)).toBe(true));
    const controls = [
      ...box.querySelectorAll<HTMLElement>("input, select, textarea, button"),
    ].filter(
      (control) =>
        !(control as HTMLInputElement).disabled &&
        !(control instanceof HTMLInputElement && control.type === "radio" && !control.checked),
    );
    const first = controls[0] as HTMLElement;
    const last = controls[controls.length - 1] as HTMLElement;
    last.focus();
    fireEvent.keyDown(last, { key: "Tab" });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(last);
  });
});

it("gives focus back to what opened the fork dialog when it closes", () => {
  const opener = document.createElement("button");
  document.body.append(opener);
  opener.focus();
  const { unmount } = render(dialogs.fork());
  expect(document.activeElement?.tagName).toBe("TEXTAREA");
  unmount();
  expect(document.activeElement).toBe(opener);
  opener.remove();
});
