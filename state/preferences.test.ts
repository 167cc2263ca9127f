// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PREFERENCES_KEY, PREFERENCES_VERSION } from "@/lib/client/preferences";
import { usePlayground } from "./playground-store";
import { chooseTheme, keepPreferences, restorePreferences } from "./preferences";

const initial = usePlayground.getState();
let prefersLight = false;
const listeners = new Set<() => void>();

beforeEach(() => {
  localStorage.clear();
  usePlayground.setState(initial, true);
  document.documentElement.dataset.theme = "dark";
  prefersLight = false;
  vi.stubGlobal("matchMedia", () => ({
    get matches() {
      return prefersLight;
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  listeners.clear();
});

const stored = () => JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? "null");

describe("preferences in the store", () => {
  it("restores what was saved, ignoring an unknown dialect", () => {
    localStorage.setItem(
      PREFERENCES_KEY,
      JSON.stringify({
        version: PREFERENCES_VERSION,
        values: {
          dialect: "klingon",
          modelId: "m",
          draft: "hi",
          sidebarOpen: false,
          rawWhitespace: true,
          theme: "light",
        },
      }),
    );
    restorePreferences();
    const state = usePlayground.getState();
    expect(state).toMatchObject({
      modelId: "m",
      draft: "hi",
      sidebarOpen: false,
      rawWhitespace: true,
      theme: "light",
    });
    expect(state.dialect).toBe(initial.dialect);
    expect(state.themeChoice).toBe("light");
  });

  it("saves changes and paints the theme; follows the OS until a theme is chosen", () => {
    restorePreferences();
    const stop = keepPreferences();
    usePlayground.getState().setSettings({ dialect: "delimiter" });
    usePlayground.getState().setUi({ draft: "typing", rawWhitespace: true });
    expect(stored().values).toMatchObject({
      dialect: "delimiter",
      draft: "typing",
      rawWhitespace: true,
    });
    expect(stored().values.theme).toBeUndefined();

    prefersLight = true;
    for (const listener of listeners) listener();
    expect(document.documentElement.dataset.theme).toBe("light");

    chooseTheme("dark");
    expect(stored().values.theme).toBe("dark");
    for (const listener of listeners) listener();
    expect(document.documentElement.dataset.theme).toBe("dark");

    chooseTheme(null);
    expect(stored().values.theme).toBeUndefined();
    expect(document.documentElement.dataset.theme).toBe("light");
    stop();
  });

  it("keeps working when storage throws", () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new Error("QuotaExceededError");
    });
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new Error("SecurityError");
    });
    expect(() => restorePreferences()).not.toThrow();
    const stop = keepPreferences();
    expect(() => usePlayground.getState().setUi({ draft: "x" })).not.toThrow();
    stop();
    vi.restoreAllMocks();
  });
});
