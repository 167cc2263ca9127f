import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
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
    <html lang="en" data-theme="dark">
      <body className="bg-bg text-fg antialiased">{children}</body>
    </html>
  );
}
