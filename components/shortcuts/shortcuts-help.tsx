"use client";

import { useEffect, useRef } from "react";
import { usePlayground } from "@/state/playground-store";
import { SHORTCUT_HELP } from "./keymap";

/** The `?` overlay: every shortcut. Esc, a click outside or Close shuts it; focus goes back. */
export function ShortcutsHelp() {
  const open = usePlayground((state) => state.helpOpen);
  return open ? <HelpDialog /> : null;
}

function HelpDialog() {
  const dialog = useRef<HTMLDivElement>(null);
  const close = () => usePlayground.getState().setUi({ helpOpen: false });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        usePlayground.getState().setUi({ helpOpen: false });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      opener?.focus();
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop; Esc and Close do the same for keyboards
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        tabIndex={-1}
        className="w-full max-w-md rounded-lg border border-border bg-surface p-4 shadow-2xl focus:outline-none"
      >
        <div className="mb-3 flex items-center">
          <h2 id="shortcuts-title" className="text-sm font-medium text-fg">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            onClick={close}
            className="ml-auto rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
          >
            Close
          </button>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-[13px]">
          {SHORTCUT_HELP.map((row) => (
            <div key={row.label} className="contents">
              <dt className="flex items-start gap-1 justify-self-end">
                {row.keys.map((key) => (
                  <kbd
                    key={key}
                    className="min-w-6 rounded border border-border bg-surface-2 px-1.5 text-center font-mono text-[11px] text-fg"
                  >
                    {key}
                  </kbd>
                ))}
              </dt>
              <dd className="text-fg-muted">{row.label}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-fg-subtle">
          Letter keys work when the focus is not in a text field. Tab reaches every card; Enter
          selects it.
        </p>
      </div>
    </div>
  );
}
