import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { EARLY_INPUT_SCRIPT } from "@/components/boot/early-input";
import { EarlyInputReplay } from "@/components/boot/early-input-replay";
import { THEME_BOOT_SCRIPT } from "@/lib/client/preferences";
import "./globals.css";

export const metadata: Metadata = {
  title: "Wirescope",
  description: "The agent playground that shows the wire.",
  icons: { icon: { url: "/favicon.svg", type: "image/svg+xml" } },
};

export const viewport: Viewport = {
  colorScheme: "dark light",
  themeColor: "#0d1117",
};

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    // The boot script sets data-theme before the first paint (the saved choice, else the OS
    // scheme), so the server's value may differ from the client's by design.
    <html lang="en" data-theme="dark" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, no input */}
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        {/* Holds clicks, typing and keys made before hydration, replayed after (a slow machine). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, no input */}
        <script dangerouslySetInnerHTML={{ __html: EARLY_INPUT_SCRIPT }} />
      </head>
      <body className="bg-bg text-fg antialiased">
        {children}
        <EarlyInputReplay />
      </body>
    </html>
  );
}
