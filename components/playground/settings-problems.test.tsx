// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SettingsProblems } from "./settings-problems";

const config = vi.hoisted(() => ({ problems: undefined as string[] | undefined }));
vi.mock("@/hooks/use-server-config", () => ({
  useServerConfig: () => ({ problems: config.problems }),
}));

afterEach(cleanup);

describe("SettingsProblems", () => {
  it("lists each setting the server cannot use, by its variable", () => {
    config.problems = [
      "WIRESCOPE_POLL_MS: must be a number of ms, 5 or more and at most 214748364; unset, it is 100.",
      "WIRESCOPE_ENABLE_SHELL: must be 1 (on) or 0 (off); unset, it is off.",
    ];
    render(<SettingsProblems />);
    const banner = screen.getByRole("status");
    expect(banner.textContent).toContain("runs on defaults for settings it cannot use");
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(
      config.problems,
    );
  });

  it("shows nothing when every setting is usable, or before the config has come", () => {
    for (const problems of [[], undefined]) {
      config.problems = problems;
      const { container } = render(<SettingsProblems />);
      expect(container.textContent).toBe("");
      cleanup();
    }
  });
});
