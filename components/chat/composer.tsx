"use client";

import { type FormEvent, type KeyboardEvent, useEffect, useRef } from "react";
import { characterCount, MAX_MESSAGE_CHARS } from "@/app/api/runs/limits";
import { escapeClaimed } from "@/components/dialog/escape-claimed";
import { usePlayground } from "@/state/playground-store";
import { sendMessage, stopRun } from "@/state/run-client";

/**
 * Enter sends, Shift+Enter starts a new line, Esc (or Stop) interrupts the run, unless that Esc
 * closes a dialog, menu or drawer or cancels an edit. The draft lives in the store, so it
 * survives a reload (saved with the preferences).
 */
export function Composer() {
  const text = usePlayground((state) => state.draft);
  const setText = (draft: string) => usePlayground.getState().setUi({ draft });
  const status = usePlayground((state) => state.status);
  const failure = usePlayground((state) => state.failure);
  const busy = status === "running" || status === "stopping";
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    // Escape stops the run only when it is not closing a dialog, menu or drawer, or cancelling
    // an edit: that is decided as the key goes down (capture), before any of them has closed,
    // and acted on as it comes back up, after the message box has seen it.
    const claimed = new WeakSet<Event>();
    const onCapture = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape" && escapeClaimed(event.target)) claimed.add(event);
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || claimed.has(event)) return;
      if (usePlayground.getState().status === "running") void stopRun();
    };
    window.addEventListener("keydown", onCapture, true);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onCapture, true);
      window.removeEventListener("keydown", onKey);
    };
  }, []);

  useEffect(() => {
    const fill = (event: Event) => {
      usePlayground.getState().setUi({ draft: (event as CustomEvent<string>).detail });
      input.current?.focus();
    };
    window.addEventListener("wirescope:prompt", fill);
    return () => window.removeEventListener("wirescope:prompt", fill);
  }, []);

  // Said before sending, not after: a pasted log past the limit would only be refused.
  // In characters as the server counts them (an emoji is one), not UTF-16 units.
  const length = text.length > MAX_MESSAGE_CHARS ? characterCount(text.trim()) : 0;
  const tooLong = length > MAX_MESSAGE_CHARS;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (message === "" || busy || tooLong) return;
    setText("");
    void sendMessage(message);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Esc stops a run (the window listener above); with none running it leaves the box, so
    // the single-key shortcuts work again.
    if (event.key === "Escape" && usePlayground.getState().status !== "running")
      event.currentTarget.blur();
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <form onSubmit={submit} className="shrink-0 border-t border-border bg-surface p-3">
      {failure !== null ? (
        <p
          role="alert"
          className="mb-2 rounded border border-danger/40 bg-danger/10 px-2 py-1 text-xs text-danger"
        >
          {failure}
        </p>
      ) : null}
      {tooLong ? (
        <p id="composer-too-long" role="status" className="mb-2 text-xs text-danger">
          The message is {length.toLocaleString("en-US")} characters long: a run takes at most{" "}
          {MAX_MESSAGE_CHARS.toLocaleString("en-US")}.
        </p>
      ) : null}
      <div className="flex items-end gap-2">
        <textarea
          ref={input}
          id="composer"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          rows={Math.min(8, Math.max(2, text.split("\n").length))}
          placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)"
          aria-label="Message"
          // Enter pressed before the page has hydrated is held and sends once it has.
          data-enter-submits=""
          aria-invalid={tooLong}
          aria-describedby={tooLong ? "composer-too-long" : undefined}
          className="min-h-[44px] min-w-0 flex-1 resize-none rounded-md border border-border bg-bg px-3 py-2 text-sm text-fg placeholder:text-fg-subtle focus:border-accent"
        />
        {busy ? (
          <button
            type="button"
            onClick={() => {
              // Stop is disabled as the run stops, then gives way to Send: the focus goes to
              // the message box, where the next message is typed, not to the page's start.
              input.current?.focus();
              void stopRun();
            }}
            disabled={status === "stopping"}
            className="h-9 shrink-0 rounded-md border border-danger/60 px-3 text-sm text-danger hover:bg-danger/10 disabled:opacity-50"
          >
            {status === "stopping" ? "Stopping…" : "Stop"}
          </button>
        ) : (
          <button
            type="submit"
            disabled={text.trim() === "" || tooLong}
            // Enabled by the text typed before the page has hydrated (the click is then held),
            // so its `disabled` may differ from the server's as it hydrates.
            data-needs-text=""
            suppressHydrationWarning
            className="h-9 shrink-0 rounded-md bg-accent px-3 text-sm font-medium text-accent-fg hover:opacity-90 disabled:opacity-40"
          >
            Send
          </button>
        )}
      </div>
    </form>
  );
}

/** Puts a prompt into the composer (used by the example prompts). */
export function suggestPrompt(prompt: string): void {
  window.dispatchEvent(new CustomEvent("wirescope:prompt", { detail: prompt }));
}
