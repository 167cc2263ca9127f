"use client";

import { type MouseEvent, type ReactNode, useEffect, useState } from "react";
import { usePlayground } from "@/state/playground-store";
import { ForkIcon } from "./icons";

/** Asks the open transcript's header to fork at an event (null: at the selected one). */
export function requestFork(eventId: string | null): void {
  window.dispatchEvent(new CustomEvent<string | null>("wirescope:fork", { detail: eventId }));
}

const FORKABLE = new Set(["user", "call", "result"]);

/**
 * A right-click menu on the timeline's user message and call cards: "Fork from here…". The
 * cards stay as they are; the menu finds the card by its `data-event-id`.
 */
export function ForkMenu({ children }: { children: ReactNode }) {
  const [menu, setMenu] = useState<{ x: number; y: number; id: string } | null>(null);
  useEffect(() => {
    if (menu === null) return;
    const close = () => setMenu(null);
    window.addEventListener("mousedown", close);
    window.addEventListener("keydown", close);
    // Wheel, not scroll: the timeline scrolls by itself as it follows its newest card.
    window.addEventListener("wheel", close, { passive: true });
    window.addEventListener("resize", close);
    return () => {
      window.removeEventListener("mousedown", close);
      window.removeEventListener("keydown", close);
      window.removeEventListener("wheel", close);
      window.removeEventListener("resize", close);
    };
  }, [menu]);

  const onContextMenu = (click: MouseEvent) => {
    const state = usePlayground.getState();
    if (state.transcript === null || state.status === "running" || state.status === "stopping")
      return;
    const card = (click.target as Element).closest<HTMLElement>("[data-event-id]");
    const id = card?.dataset.eventId;
    const type = card?.dataset.eventType;
    if (id === undefined || type === undefined || !FORKABLE.has(type)) return;
    if (state.log.get(id)?.parent !== undefined) return;
    click.preventDefault();
    state.select(id);
    setMenu({ x: click.clientX, y: click.clientY, id });
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a context-menu shortcut; the header's Fork button does the same
    <div className="flex min-h-0 flex-1 flex-col" onContextMenu={onContextMenu}>
      {children}
      {menu !== null ? (
        <div
          role="menu"
          aria-label="Event actions"
          className="fixed z-40 rounded-md border border-border bg-surface p-1 shadow-2xl"
          style={{ left: menu.x, top: menu.y }}
        >
          <button
            type="button"
            role="menuitem"
            onMouseDown={(press) => press.stopPropagation()}
            onClick={() => {
              setMenu(null);
              requestFork(menu.id);
            }}
            className="flex items-center gap-2 rounded px-2 py-1 text-xs text-fg hover:bg-surface-2"
          >
            <ForkIcon />
            Fork from here…
          </button>
        </div>
      ) : null}
    </div>
  );
}
