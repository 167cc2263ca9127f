// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadMarkdownRenderer } from "../markdown";
import { append, cleanup, loadLog, make, renderCard } from "../testing";

// The markdown renderer is its own chunk: loaded first, cards render their markdown at once.
beforeAll(() => loadMarkdownRenderer());
afterEach(cleanup);

describe("RespondCard", () => {
  it("renders model HTML and script links inert", () => {
    const respond = make.respond(
      [
        "<script>window.__xss=1</script>",
        "",
        '<img src=x onerror="window.__xss=2"> and <b onclick="alert(1)">bold</b>',
        "",
        "[click me](javascript:window.__xss=3) [data](data:text/html,hi) [ok](https://example.com)",
        "",
        "![logo](https://example.com/logo.png)",
      ].join("\n"),
    );
    loadLog([respond]);
    const { container } = renderCard(respond);
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("[onerror], [onclick]")).toBeNull();
    // The markup is shown as text: the user sees what the model wrote.
    expect(container.textContent).toContain("<script>window.__xss=1</script>");
    const hrefs = [...container.querySelectorAll("a")].map((link) => link.getAttribute("href"));
    expect(hrefs).toEqual(["https://example.com", "https://example.com/logo.png"]);
    expect(container.textContent).toContain("click me");
    expect(container.textContent).toContain("[image: logo]");
    expect((globalThis as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it("renders markdown (GFM tables, code)", () => {
    const respond = make.respond("| a | b |\n|---|---|\n| 1 | 2 |\n\nRun `ls`.");
    loadLog([respond]);
    const { container } = renderCard(respond);
    expect(container.querySelectorAll("td")).toHaveLength(2);
    expect(container.querySelector("code")?.textContent).toBe("ls");
  });

  it("resolves $variables in place: value, placeholder while pending, warning when unknown", () => {
    const respond = make.respond("Total: $total. Files: $files. Other: $nope. Code: `$total`");
    const total = make.call(
      "total",
      "calculate",
      { expression: "1+1" },
      {
        action: { type: "tool", mode: "async", outputKey: "total" },
      },
    );
    const files = make.call(
      "files",
      "list",
      {},
      {
        action: { type: "tool", mode: "async", outputKey: "files" },
      },
    );
    const sum = { expression: "1+1", value: 2 };
    loadLog([total, files, make.result("total", "success", sum, "1+1 = 2", "calculate"), respond], {
      dialect: "action",
      status: "running",
    });
    const { container } = renderCard(respond);
    const variable = (name: string) =>
      container.querySelector(`[data-variable=${name}]`) as HTMLElement | null;

    expect(variable("total")?.dataset.state).toBe("value");
    expect(variable("total")?.textContent).toBe("2");
    expect(variable("files")?.dataset.state).toBe("pending");
    expect(variable("files")?.textContent).toBe("$files …");
    expect(variable("nope")?.dataset.state).toBe("unknown");
    expect(variable("nope")?.textContent).toBe("$nope");
    expect(container.querySelector("code")?.textContent).toBe("$total");

    const listed = {
      path: ".",
      entries: [
        { path: "a.md", type: "file" },
        { path: "docs", type: "directory" },
      ],
    };
    act(() => append(make.result("files", "success", listed, "Listed 2", "list")));
    expect(variable("files")?.dataset.state).toBe("value");
    expect(variable("files")?.textContent).toBe("a.md, docs/");
  });

  it("leaves $names alone outside the action dialect", () => {
    const respond = make.respond("It costs $5 and $total.");
    loadLog([respond], { dialect: "xml" });
    const { container } = renderCard(respond);
    expect(container.querySelector("[data-variable]")).toBeNull();
    expect(container.textContent).toBe("It costs $5 and $total.");
  });
});
