import { describe, expect, it } from "vitest";
import { safeUrl } from "./safe-url";

describe("safeUrl", () => {
  it.each(["https://example.com/a?b#c", "http://x.y", "mailto:a@b.c", "  HTTPS://EXAMPLE.COM  "])(
    "keeps %s",
    (url) => expect(safeUrl(url)).toBe(url.trim()),
  );

  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\nscript:alert(1)",
    " \u0001javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox",
    "/api/runs",
    "//evil.example",
    "#top",
    "",
  ])("drops %j", (url) => expect(safeUrl(url)).toBe(""));
});
