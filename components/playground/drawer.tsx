"use client";

import { type ReactNode, useEffect, useRef } from "react";

/**
 * A side panel over the conversation on a narrow window. Esc, a click on the dimmed page or
 * Close shuts it; the focus moves into it on open and back to where it was on close.
 */
export function Drawer({
  side,
  label,
  width,
  titled = true,
  onClose,
  children,
}: {
  side: "left" | "right";
  label: string;
  width?: number;
  /** Show a title row with Close (the sidebar has its own header; Esc and the backdrop close it). */
  titled?: boolean;
  onClose(): void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      // A menu or dialog inside the drawer closes first (it handles its own Esc).
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (dialogOpen()) return;
      close.current();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <>
      <div
        aria-hidden="true"
        className="absolute inset-0 z-30 bg-black/30"
        onMouseDown={() => close.current()}
      />
      <div
        ref={panel}
        // Untitled (the sidebar) it holds its own landmark; titled it is one.
        {...(titled ? { role: "region", "aria-label": label } : {})}
        tabIndex={-1}
        // Escape closes it (and so does not stop a run: components/dialog/escape-claimed.ts).
        data-drawer
        data-testid={side === "left" ? "sidebar-drawer" : "debug-region"}
        className={`absolute inset-y-0 z-40 flex max-w-[calc(100%-2rem)] flex-col bg-surface shadow-2xl focus:outline-none ${side === "left" ? "left-0 border-r" : "right-0 border-l"} border-border`}
        style={width === undefined ? undefined : { width }}
      >
        {titled ? (
          <div className="flex h-8 shrink-0 items-center border-b border-border px-2">
            <span className="text-[11px] font-medium uppercase tracking-wide text-fg-subtle">
              {label}
            </span>
            <button
              type="button"
              onClick={() => close.current()}
              className="ml-auto rounded px-2 py-0.5 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
            >
              Close
            </button>
          </div>
        ) : null}
        <div className="flex min-h-0 flex-1 flex-col">{children}</div>
      </div>
    </>
  );
}

/** A dialog is open on the page (fork, settings, help): its Esc is its own. */
function dialogOpen(): boolean {
  return document.querySelector("[role=dialog]") !== null;
}
