// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EDITED_OUTCOME } from "@/lib/transcripts/fork";
import { loadJsonHighlighter } from "../json-highlighter";
import { append, cleanup, loadLog, make, renderCard } from "../testing";

afterEach(cleanup);

const status = (container: HTMLElement) =>
  container.querySelector("[data-status]")?.getAttribute("data-status");

describe("CallCard", () => {
  it("is one card for the call and its result: running, then the outcome", () => {
    const call = make.call("c1", "read", { file: "notes/todo.md" });
    loadLog([call], { status: "running" });
    const { container, getByText } = renderCard(call);
    expect(getByText("read")).toBeTruthy();
    expect(container.textContent).toContain('"file": "notes/todo.md"');
    expect(status(container)).toBe("running");
    expect(container.textContent).toContain("running…");

    act(() => append(make.result("c1", "success", "- buy milk", "Read 1 line", "read")));
    expect(status(container)).toBe("success");
    expect(container.querySelector("[data-testid=call-outcome]")?.textContent).toContain(
      "Read 1 line",
    );
    expect(container.textContent).toContain("- buy milk");
    expect(container.textContent).toContain("42 ms");
  });

  it("shows a result mocked in a fork as mocked, without a duration", () => {
    const call = make.call("c1", "read", { file: "notes/todo.md" });
    const mocked = make.result("c1", "success", "- mock", EDITED_OUTCOME, "read");
    loadLog([call, mocked]);
    const { container, getByTestId } = renderCard(call);
    expect(getByTestId("mocked").textContent).toBe("mocked");
    expect(container.textContent).not.toContain("42 ms");
  });

  it.each(["failure", "skipped"] as const)("shows a %s", (outcome) => {
    const call = make.call("c1", "read", { file: "nope.txt" });
    loadLog([call, make.result("c1", outcome, "No such file", "No such file: nope.txt", "read")]);
    const { container } = renderCard(call);
    expect(status(container)).toBe(outcome);
    expect(container.textContent).toContain("No such file: nope.txt");
  });

  it("says 'no result' when the run ended before the call's result", () => {
    const call = make.call("c1", "list", {});
    loadLog([call], { status: "done" });
    expect(status(renderCard(call).container)).toBe("no result");
  });

  it("highlights the arguments as JSON", async () => {
    const call = make.call("c1", "calculate", { expression: "2+2", exact: true });
    loadLog([call]);
    const { container } = renderCard(call);
    await act(async () => {
      await loadJsonHighlighter();
    });
    const tokens = [...container.querySelectorAll("code span[style]")];
    const key = tokens.find((token) => token.textContent === '"expression"') as HTMLElement;
    expect(key.style.getPropertyValue("--shiki-dark")).toMatch(/^#/);
    expect(key.style.getPropertyValue("--shiki-light")).toMatch(/^#/);
  });

  it("shows the first lines of long output, and all of it on request", () => {
    const call = make.call("c1", "read", { file: "long.txt" });
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`);
    loadLog([call, make.result("c1", "success", lines.join("\n"), "Read 40 lines", "read")]);
    const { container, getByRole } = renderCard(call);
    expect(container.textContent).toContain("line 12");
    expect(container.textContent).not.toContain("line 13");
    act(() => getByRole("button", { name: "Show all 40 lines" }).click());
    expect(container.textContent).toContain("line 40");
  });

  it("shows an action's type, mode, id, output key and dependencies as chips", () => {
    const call = make.call(
      "report",
      "write",
      { file: "r.txt", content: "$total" },
      {
        action: { type: "tool", mode: "sync", outputKey: "report", dependsOn: ["files", "total"] },
      },
    );
    loadLog([call]);
    const chips = renderCard(call).container.querySelector("[data-testid=action-chips]");
    expect(chips?.textContent).toBe(
      "type tool" + "mode sync" + "id report" + "output_key $report" + "depends_on files, total",
    );
  });

  it("nests a sub-agent's events under its call", () => {
    const call = make.call(
      "a1",
      "researcher",
      { task: "x" },
      {
        action: { type: "agent", mode: "sync" },
      },
    );
    const child = { ...make.respond("sub answer", "child-r"), parent: "a1" };
    loadLog([call, child]);
    const { container } = renderCard(call);
    const nested = container.querySelector("[data-testid=sub-agent] [data-event-id=child-r]");
    expect(nested?.textContent).toBe("sub answer");
  });
});
