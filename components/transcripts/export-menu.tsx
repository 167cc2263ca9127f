"use client";

import { useRef, useState } from "react";
import { onMenuKeyDown, opensOnArrowDown, useFocusFirstItem } from "@/components/dialog/menu-keys";
import { useDismiss } from "@/hooks/use-dismiss";
import { useServerConfig } from "@/hooks/use-server-config";
import { exportUrl, type MarkdownSwitches, sendOtlp } from "./api";
import { DownloadIcon } from "./icons";

const SWITCHES: { key: keyof MarkdownSwitches; label: string }[] = [
  { key: "reasoning", label: "Reasoning" },
  { key: "tools", label: "Tool calls" },
  { key: "requests", label: "Requests" },
];

const ITEM =
  "flex items-center justify-between gap-3 rounded px-2 py-1 text-xs text-fg hover:bg-surface-2";

/**
 * Downloads of the open transcript: JSONL (to import again), Markdown (to read), TaskSteps,
 * OTLP traces; and, when the server has an OTLP endpoint, sending it there.
 */
export function ExportMenu({ transcriptId }: { transcriptId: string }) {
  const otlpEndpoint = useServerConfig()?.otlp === true;
  const [otlpContent, setOtlpContent] = useState(false);
  const [sending, setSending] = useState<"idle" | "sending" | { message: string; failed: boolean }>(
    "idle",
  );
  const send = async () => {
    setSending("sending");
    const result = await sendOtlp(transcriptId);
    setSending(
      result.ok
        ? {
            message: `Sent ${plural(result.value.sent.spans, "span")} in ${plural(result.value.sent.traces, "trace")}.`,
            failed: false,
          }
        : { message: result.error, failed: true },
    );
  };
  const [open, setOpen] = useState(false);
  const [switches, setSwitches] = useState<MarkdownSwitches>({
    reasoning: true,
    tools: true,
    requests: false,
  });
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  const menu = useRef<HTMLDivElement>(null);
  useFocusFirstItem(open, menu);

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => setOpen(!open)}
        onKeyDown={(key) => opensOnArrowDown(key, () => setOpen(true))}
        className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg aria-expanded:bg-surface-2 aria-expanded:text-fg"
      >
        <DownloadIcon />
        Export
      </button>
      {open ? (
        <div
          ref={menu}
          role="menu"
          aria-label="Export"
          onKeyDown={onMenuKeyDown}
          className="absolute top-8 right-0 z-30 flex w-60 flex-col gap-0.5 rounded-md border border-border bg-surface p-1.5 shadow-2xl"
        >
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "jsonl")}
            download
            onClick={() => setOpen(false)}
          >
            JSONL <span className="text-[11px] text-fg-subtle">every record</span>
          </a>
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "tasksteps")}
            download
            onClick={() => setOpen(false)}
          >
            TaskSteps JSON <span className="text-[11px] text-fg-subtle">one step per turn</span>
          </a>
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "otlp", undefined, otlpContent)}
            download
            onClick={() => setOpen(false)}
          >
            OTLP traces <span className="text-[11px] text-fg-subtle">OpenTelemetry</span>
          </a>
          <div className="flex flex-wrap gap-x-3 gap-y-1 px-2 pt-0.5 pb-1">
            <label className="flex items-center gap-1 text-[11px] text-fg-muted">
              <input
                type="checkbox"
                role="menuitemcheckbox"
                aria-checked={otlpContent}
                checked={otlpContent}
                onChange={(change) => setOtlpContent(change.target.checked)}
                className="accent-[var(--ws-accent)]"
              />
              Content and raw wire text
            </label>
          </div>
          {otlpEndpoint ? (
            <button
              type="button"
              role="menuitem"
              className={`${ITEM} text-left disabled:opacity-60`}
              disabled={sending === "sending"}
              onClick={send}
            >
              Send to OTLP endpoint
              {sending === "sending" ? (
                <span className="text-[11px] text-fg-subtle">sending…</span>
              ) : null}
            </button>
          ) : null}
          {typeof sending === "object" ? (
            <p
              role="status"
              className={`px-2 pb-1 text-[11px] ${sending.failed ? "text-danger" : "text-fg-muted"}`}
            >
              {sending.message}
            </p>
          ) : null}
          <div className="my-1 border-t border-border" />
          <a
            role="menuitem"
            className={ITEM}
            href={exportUrl(transcriptId, "markdown", switches)}
            download
            onClick={() => setOpen(false)}
          >
            Markdown <span className="text-[11px] text-fg-subtle">to read</span>
          </a>
          <div className="flex flex-wrap gap-x-3 gap-y-1 px-2 pt-0.5 pb-1">
            {SWITCHES.map(({ key, label }) => (
              <label key={key} className="flex items-center gap-1 text-[11px] text-fg-muted">
                <input
                  type="checkbox"
                  role="menuitemcheckbox"
                  aria-checked={switches[key]}
                  checked={switches[key]}
                  onChange={(change) => setSwitches({ ...switches, [key]: change.target.checked })}
                  className="accent-[var(--ws-accent)]"
                />
                {label}
              </label>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
