"use client";

import { type Theme, usePlayground } from "@/state/playground-store";
import { chooseTheme } from "@/state/preferences";

const OPTIONS: readonly { value: Theme | null; label: string }[] = [
  { value: null, label: "System" },
  { value: "dark", label: "Dark" },
  { value: "light", label: "Light" },
];

/** Theme: follow the OS colour scheme (the default) or keep one. */
export function ThemeChoice() {
  const choice = usePlayground((state) => state.themeChoice);
  return (
    <fieldset className="flex items-center gap-3 text-xs text-fg-muted">
      <legend className="mb-1 text-xs font-medium uppercase tracking-wider text-fg-subtle">
        Theme
      </legend>
      {OPTIONS.map((option) => (
        <label key={option.label} className="flex items-center gap-1">
          <input
            type="radio"
            name="theme"
            checked={choice === option.value}
            onChange={() => chooseTheme(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
