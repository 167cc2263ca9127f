"use client";

import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useState,
} from "react";
import { turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardCopy } from "./card-copy";

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
 * Cards nest (sub-agent runs), so the innermost card under the pointer wins. Each card is a
 * tab stop (Enter or Space selects it; J/K move between cards) with copy buttons that show on
 * hover, selection or focus.
 */
export function CardFrame({ event, children, className = "", linkId }: CardFrameProps) {
  const id = linkId ?? event.id;
  const hovered = usePlayground((state) => state.hoveredId === id);
  const selected = usePlayground((state) => state.selectedId === id);
  // The focus is in this card (not a nested one's copy buttons): show its copy buttons.
  const [focused, setFocused] = useState(false);
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
  const onKeyDown = (key: KeyboardEvent) => {
    // Only the card itself: Enter on a button inside it is that button's.
    if (key.target !== key.currentTarget || (key.key !== "Enter" && key.key !== " ")) return;
    key.preventDefault();
    const state = usePlayground.getState();
    state.select(id, turnOf(state.log.get(id) ?? event) ?? null);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: the role on the card's own div keeps the virtualizer's row markup as it is
    <div
      role="article"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable articles, as in the ARIA feed pattern: Tab and J/K reach each card
      tabIndex={0}
      aria-label={`${event.type} event`}
      aria-current={selected || undefined}
      data-event-type={event.type}
      data-event-id={event.id}
      data-selected={selected || undefined}
      onPointerOver={onPointerOver}
      onPointerLeave={onPointerLeave}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onFocus={(focus: FocusEvent) => {
        focus.stopPropagation();
        setFocused(true);
      }}
      onBlur={(blur: FocusEvent<HTMLDivElement>) => {
        if (!blur.currentTarget.contains(blur.relatedTarget)) setFocused(false);
      }}
      className={`relative rounded-md outline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent ${outline} ${className}`}
    >
      {children}
      {hovered || selected || focused ? <CardCopy event={event} /> : null}
    </div>
  );
}
