// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TranscriptSummary } from "@/lib/store/store";
import { usePlayground } from "@/state/playground-store";
import { Sidebar } from "./sidebar";
import { LIST_RETRY_MS } from "./use-transcript-list";

const summary = (
  id: string,
  extra: Partial<Omit<TranscriptSummary, "source">> = {},
): TranscriptSummary => ({
  id,
  title: `Transcript ${id}`,
  createdAt: 0,
  updatedAt: 0,
  dialect: "xml",
  model: { provider: "demo", id: "scripted" },
  source: "playground",
  recordCount: 3,
  ...extra,
});

const LIST = [
  summary("a"),
  summary("b", {
    match: { before: "…the expense report's ", text: "average", after: " is wrong…" },
  }),
  summary("c"),
];

const scrolled: string[] = [];
// The list scrolls itself, not the page (Chromium's scrollIntoView also moves where Tab starts).
vi.mock("@/components/scroll/scroll-within", () => ({
  scrollWithin: (_scroller: HTMLElement, item: HTMLElement) => {
    scrolled.push(item.dataset.transcriptId ?? "");
  },
}));

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ transcripts: LIST, nextOffset: null })),
  );
  scrolled.length = 0;
  usePlayground.setState({ transcriptId: "b", status: "done" });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function setup() {
  render(<Sidebar />);
  await waitFor(() => expect(screen.getAllByTestId("transcript-item")).toHaveLength(3));
  return [...document.querySelectorAll<HTMLElement>("[data-open-button]")];
}

describe("Sidebar", () => {
  it("is one tab stop, on the open transcript; arrows move it, and it follows focus", async () => {
    const buttons = await setup();
    expect(buttons.map((button) => button.tabIndex)).toEqual([-1, 0, -1]);
    const actions = screen.getAllByRole("button", { name: /^(Rename|Delete) "/, hidden: true });
    expect(actions.every((action) => action.tabIndex === -1)).toBe(true);

    act(() => buttons[1]?.focus());
    act(() => fireEvent.keyDown(buttons[1] as HTMLElement, { key: "ArrowDown" }));
    expect(document.activeElement).toBe(buttons[2]);
    expect(buttons.map((button) => button.tabIndex)).toEqual([-1, -1, 0]);
    act(() => fireEvent.keyDown(buttons[2] as HTMLElement, { key: "Home" }));
    expect(document.activeElement).toBe(buttons[0]);
    act(() => fireEvent.keyDown(buttons[0] as HTMLElement, { key: "ArrowUp" }));
    expect(document.activeElement).toBe(buttons[0]);
  });

  it("reaches the tab stop's compare link by Tab (it has no key of its own), not the others'", async () => {
    const buttons = await setup();
    const links = screen.getAllByRole("link", { name: /^Compare "/, hidden: true });
    expect(links.map((link) => link.tabIndex)).toEqual([-1, 0, -1]);
    act(() => buttons[1]?.focus());
    act(() => fireEvent.keyDown(buttons[1] as HTMLElement, { key: "ArrowDown" }));
    expect(links.map((link) => link.tabIndex)).toEqual([-1, -1, 0]);
  });

  it("asks again after a failed list, and shows the list once the server answers", async () => {
    // A server whose database is down answers 503 until it is back; the sidebar kept the error
    // until the next run changed the list.
    let down = true;
    const fetched = vi.fn(async () =>
      down
        ? Response.json(
            { error: "store: the database (DATABASE_URL) cannot be used; see the server log." },
            { status: 503 },
          )
        : Response.json({ transcripts: LIST, nextOffset: null }),
    );
    vi.stubGlobal("fetch", fetched);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(<Sidebar />);
      await waitFor(() => expect(screen.getByText(/the database \(DATABASE_URL\)/)).toBeTruthy());
      const asked = fetched.mock.calls.length;
      down = false;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(LIST_RETRY_MS);
      });
      await waitFor(() => expect(screen.getAllByTestId("transcript-item")).toHaveLength(3));
      expect(fetched.mock.calls.length).toBe(asked + 1);
      expect(screen.queryByText(/the database \(DATABASE_URL\)/)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("scrolls the open transcript into view", async () => {
    await setup();
    expect(scrolled).toEqual(["b"]);
    act(() => usePlayground.setState({ transcriptId: "c" }));
    expect(scrolled).toEqual(["b", "c"]);
  });

  it("shows why a search matched, the match marked", async () => {
    await setup();
    const match = screen.getByTestId("search-match");
    // The context before it is cut short, so a narrow row still shows the match.
    expect(match.textContent).toBe("…xpense report's average is wrong…");
    expect(match.querySelector("mark")?.textContent).toBe("average");
  });

  it("F2 renames the focused item in place", async () => {
    const buttons = await setup();
    act(() => fireEvent.keyDown(buttons[0] as HTMLElement, { key: "F2" }));
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Transcript a");
  });
});
