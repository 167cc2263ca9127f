"use client";

import { useMemo, useRef } from "react";
import { useFrameVersion } from "@/hooks/use-frame-version";
import { usePlayground } from "@/state/playground-store";
import { CopyButton } from "./copy-button";
import { formatCount } from "./format-count";
import {
  estimatedTextHeight,
  estimateTokens,
  MESSAGE_HEADER_PX,
  type MessageView,
  messageView,
} from "./request-content";
import { RequestMessage } from "./request-message";
import { TurnPicker } from "./turn-picker";
import { useNearItems } from "./use-near-items";
import { wirePaletteStyle } from "./wire-theme";

/**
 * Request: exactly what one model turn was sent (docs/http-api.md `request`, secrets already
 * redacted) — provider, model, settings and the messages by role. Follows the selected turn
 * (store `selectedTurn`), else shows the latest.
 */
export function RequestView() {
  useFrameVersion();
  const log = usePlayground((state) => state.log);
  const selectedTurn = usePlayground((state) => state.selectedTurn);
  const theme = usePlayground((state) => state.theme);
  const setUi = usePlayground((state) => state.setUi);
  const list = useRef<HTMLUListElement>(null);

  const turns = [...log.turns.values()].filter((turn) => turn.request !== undefined);
  const chosen =
    turns.find((turn) => turn.turn === selectedTurn) ?? turns[turns.length - 1] ?? undefined;
  const request = chosen?.request;
  // Kept across renders (the view re-renders on every record of a run): messages memoised.
  const messages = useMemo(() => request?.messages.map(messageView) ?? [], [request]);
  const heights = useMemo(
    () =>
      messages.map(
        (message) =>
          MESSAGE_HEADER_PX + (isOpenAtFirst(message) ? estimatedTextHeight(message.text) : 0),
      ),
    [messages],
  );
  const near = useNearItems(list, "[data-request-message]", request, heights);
  if (chosen === undefined || request === undefined)
    return (
      <p className="p-4 text-xs text-fg-subtle">What each model turn was sent appears here.</p>
    );

  const total = messages.reduce((sum, message) => sum + estimateTokens(message.text), 0);
  const settings = JSON.stringify(request.settings);

  return (
    <div
      className="flex min-h-0 flex-1 flex-col"
      style={wirePaletteStyle(theme)}
      data-request-view={chosen.turn}
    >
      <div className="flex flex-col gap-1.5 border-b border-border px-3 py-2">
        <div className="flex items-center gap-2">
          <TurnPicker
            turns={turns.map((turn) => turn.turn)}
            current={chosen.turn}
            onPick={(turn) => setUi({ selectedTurn: turn })}
          />
          <div className="ml-auto shrink-0">
            <CopyButton label="Copy as JSON" text={() => JSON.stringify(request, null, 2)} />
          </div>
        </div>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 font-mono text-[11px] leading-4">
          <dt className="text-fg-subtle">model</dt>
          <dd className="truncate text-fg">
            {request.provider} / {request.model}
          </dd>
          <dt className="text-fg-subtle">sent</dt>
          <dd className="text-fg-muted">
            {request.t.toFixed(1)} ms after the run started · {messages.length} messages · ~
            {formatCount(total)} tokens
          </dd>
          <dt className="text-fg-subtle">settings</dt>
          <dd className="truncate text-fg-muted" title={settings}>
            {settings === "{}" ? "provider defaults" : settings}
          </dd>
        </dl>
      </div>
      <ul
        ref={list}
        aria-label="Messages"
        className="min-h-0 flex-1 overflow-auto"
        data-testid="request-messages"
      >
        {messages.map((message, index) => (
          <RequestMessage
            // biome-ignore lint/suspicious/noArrayIndexKey: by position: the next turn repeats them
            key={index}
            message={message}
            open={isOpenAtFirst(message)}
            near={near.has(index)}
          />
        ))}
      </ul>
    </div>
  );
}

/** The system prompt (long, and the same every turn) starts collapsed; the rest open. */
const isOpenAtFirst = (message: MessageView) => message.role !== "system";
