"use client";

import type { MouseEvent, ReactNode } from "react";
import { turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";

interface CardFrameProps {
  event: ProtocolEvent;
  children: ReactNode;
  /** Classes for the card's own look (border, background, padding). */
  className?: string;
  /**
   * The event hover and click link to, when it is not this one: a stray result links to the
   * event its `callId` names (a malformed call's error), whose span the raw view can show.
   */
  linkId?: string;
}

/**
 * The root of every card: the `data-event-*` attributes the debug panel and the e2e tests
 * find cards by, hover and click linking (to the raw view), and the outline that shows it.
 * Cards nest (sub-agent runs), so the innermost card under the pointer wins.
 */
export function CardFrame({ event, children, className = "", linkId }: CardFrameProps) {
  const id = linkId ?? event.id;
  const hovered = usePlayground((state) => state.hoveredId === id);
  const selected = usePlayground((state) => state.selectedId === id);
  const outline = selected
    ? "outline outline-1 outline-accent"
    : hovered
      ? "outline outline-1 outline-info/60"
      : "";

  const onPointerOver = (pointer: MouseEvent) => {
    pointer.stopPropagation();
    const state = usePlayground.getState();
    if (state.hoveredId !== id) state.hover(id);
  };
  const onPointerLeave = () => {
    const state = usePlayground.getState();
    if (state.hoveredId === id) state.hover(null);
  };
  const onClick = (click: MouseEvent) => {
    click.stopPropagation();
    // A click that ends a text selection is for copying, not for selecting the card.
    if (window.getSelection()?.isCollapsed === false) return;
    const state = usePlayground.getState();
    state.select(id, turnOf(state.log.get(id) ?? event) ?? null);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer linking; every action inside has its own button
    // biome-ignore lint/a11y/useKeyWithClickEvents: selection is a pointer shortcut, the debug panel has its own navigation
    <div
      data-event-type={event.type}
      data-event-id={event.id}
      data-selected={selected || undefined}
      onPointerOver={onPointerOver}
      onPointerLeave={onPointerLeave}
      onClick={onClick}
      className={`rounded-md outline-offset-2 ${outline} ${className}`}
    >
      {children}
    </div>
  );
}
