import type { CSSProperties } from "react";
import type { ThemeRegistration } from "shiki/core";
import type { Theme } from "@/state/playground-store";

const variable = (name: string) => `var(--wire-${name})`;

/**
 * One shiki theme whose colours are CSS variables: tokens are computed once and the page's
 * theme (dark or light) only swaps the variables below, so switching never re-tokenizes.
 */
export const WIRE_THEME: ThemeRegistration = {
  name: "wire",
  type: "dark",
  colors: { "editor.foreground": variable("fg"), "editor.background": "transparent" },
  tokenColors: [
    { settings: { foreground: variable("fg") } },
    { scope: "punctuation.definition.tag.wire", settings: { foreground: variable("punct") } },
    { scope: "entity.name.tag.wire", settings: { foreground: variable("tag") } },
    { scope: "entity.name.tag.system.wire", settings: { foreground: variable("system") } },
    { scope: "keyword.control.marker.wire", settings: { foreground: variable("tag") } },
    { scope: "entity.other.attribute-name.wire", settings: { foreground: variable("attr") } },
    { scope: "string.quoted.attribute.wire", settings: { foreground: variable("string") } },
    {
      scope: "comment.block.think.wire",
      settings: { foreground: variable("think"), fontStyle: "italic" },
    },
    { scope: "support.type.property-name.json", settings: { foreground: variable("key") } },
    { scope: "string.quoted.double.json", settings: { foreground: variable("string") } },
    { scope: "constant.character.escape.json", settings: { foreground: variable("number") } },
    {
      scope: ["constant.numeric.json", "constant.language.json"],
      settings: { foreground: variable("number") },
    },
    { scope: "punctuation.separator", settings: { foreground: variable("punct") } },
    {
      scope: ["punctuation.definition.dictionary", "punctuation.definition.array"],
      settings: { foreground: variable("punct") },
    },
    { scope: "invalid.illegal", settings: { foreground: variable("invalid") } },
  ],
};

type Palette = Record<
  "fg" | "punct" | "tag" | "system" | "attr" | "string" | "think" | "key" | "number" | "invalid",
  string
>;

const PALETTES: Record<Theme, Palette> = {
  dark: {
    fg: "#d5dde8",
    punct: "#6f7d91",
    tag: "#7aa7ff",
    system: "#e5b567",
    attr: "#c792ea",
    string: "#c3e88d",
    think: "#8b98a9",
    key: "#89ddff",
    number: "#f78c6c",
    invalid: "#f07178",
  },
  // Dark enough to keep 4.5:1 under the hover and selection tints (15 %), not only on the
  // plain wire background (the earlier shades fell to 3.2–3.3:1 under them).
  light: {
    fg: "#1c2430",
    punct: "#4f5965",
    tag: "#264ea7",
    system: "#724a00",
    attr: "#632ebe",
    string: "#246212",
    think: "#4a5563",
    key: "#095b6a",
    number: "#90420a",
    invalid: "#8a2026",
  },
};

/** The CSS variables the wire theme reads, for the element that holds highlighted text. */
export function wirePaletteStyle(theme: Theme): CSSProperties {
  const style: Record<string, string> = {};
  for (const [name, value] of Object.entries(PALETTES[theme])) style[`--wire-${name}`] = value;
  return style as CSSProperties;
}
