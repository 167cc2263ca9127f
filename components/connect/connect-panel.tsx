"use client";

import { useEffect, useRef, useState } from "react";
import { CopyButton } from "@/components/debug/copy-button";
import { useModal } from "@/components/dialog/use-modal";
import { PROXY_NAMES, type ProxyName, proxyBaseURL } from "@/lib/proxy/names";
import { SNIPPET_LABEL, type SnippetKind, snippetFor } from "./snippets";

const KINDS: readonly SnippetKind[] = ["openai-sdk", "ai-sdk", "curl", "env"];

const DESCRIPTION: Record<ProxyName, string> = {
  openai: "OpenAI chat completions, /models",
  anthropic: "Anthropic messages",
  compat: "your OpenAI-compatible server (WIRESCOPE_COMPAT_BASE_URL)",
  ollama: "Ollama on 127.0.0.1:11434",
  lmstudio: "LM Studio on 127.0.0.1:1234",
  vllm: "vLLM on 127.0.0.1:8000",
  llamacpp: "llama.cpp server on 127.0.0.1:8080",
  openrouter: "OpenRouter",
};

/** The top bar's button and the panel it opens. */
export function ConnectButton({ className }: { className: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Connect
      </button>
      {open ? <ConnectPanel onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * "Connect an agent": the capture proxy's base URLs, ready to copy, and snippets for the
 * common clients (docs/capture-proxy.md). Keys stay with the agent or the server; none are shown here.
 */
export function ConnectPanel({ onClose }: { onClose(): void }) {
  const [origin, setOrigin] = useState("http://127.0.0.1:3000");
  const [name, setName] = useState<ProxyName>("openai");
  const [kind, setKind] = useState<SnippetKind>("openai-sdk");
  useEffect(() => setOrigin(window.location.origin), []);
  const base = proxyBaseURL(origin, name);
  const snippet = snippetFor(kind, base, name === "anthropic");
  const dialog = useRef<HTMLElement>(null);
  useModal(dialog, onClose);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop; Esc and Close do the same for keyboards
    <div
      className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/40 py-[8vh]"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <section
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-label="Connect an agent"
        className="flex w-[44rem] max-w-[calc(100vw-2rem)] flex-col gap-3 rounded-lg border border-border bg-surface p-4 shadow-2xl"
      >
        <div className="flex items-start gap-3">
          <div className="min-w-0">
            <h2 className="text-sm font-semibold text-fg">Connect an agent</h2>
            <p className="mt-0.5 text-xs text-fg-muted">
              Point your agent's base URL here. Wirescope forwards every call unchanged and records
              the model's wire text as a captured transcript. It runs no tools: your agent does.
            </p>
          </div>
          <button
            type="button"
            onClick={onClose}
            className="ml-auto rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg"
          >
            Close
          </button>
        </div>

        <ul className="flex flex-col divide-y divide-border rounded-md border border-border">
          {PROXY_NAMES.map((option) => {
            const url = proxyBaseURL(origin, option);
            return (
              <li key={option} className="flex min-w-0 items-center gap-2 px-2 py-1.5">
                <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2">
                  <input
                    type="radio"
                    name="proxy-name"
                    checked={option === name}
                    onChange={() => setName(option)}
                    className="accent-[var(--color-accent)]"
                  />
                  <span className="w-20 shrink-0 font-mono text-xs text-fg">{option}</span>
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate font-mono text-[11px] text-fg-muted" title={url}>
                      {url}
                    </span>
                    <span className="truncate text-[11px] text-fg-subtle">
                      {DESCRIPTION[option]}
                    </span>
                  </span>
                </label>
                <CopyButton text={() => url} label="Copy" />
              </li>
            );
          })}
        </ul>

        <div className="flex flex-col gap-1.5">
          <div className="flex items-center gap-1">
            {/* The tabs alone: a tablist may hold only tabs, so Copy sits beside it. */}
            <div className="flex items-center gap-1" role="tablist" aria-label="Snippet">
              {KINDS.map((option) => (
                <button
                  key={option}
                  type="button"
                  role="tab"
                  aria-selected={option === kind}
                  onClick={() => setKind(option)}
                  className={`rounded px-2 py-0.5 text-xs ${option === kind ? "bg-surface-2 text-fg" : "text-fg-muted hover:text-fg"}`}
                >
                  {option === "openai-sdk" && name === "anthropic"
                    ? "Anthropic SDK"
                    : SNIPPET_LABEL[option]}
                </button>
              ))}
            </div>
            <span className="ml-auto">
              <CopyButton text={() => snippet} label="Copy snippet" />
            </span>
          </div>
          <pre
            className="max-h-64 overflow-auto rounded-md border border-border bg-bg p-2.5 font-mono text-[12px] leading-relaxed text-fg"
            data-testid="connect-snippet"
          >
            {snippet}
          </pre>
        </div>

        <p className="text-[11px] text-fg-subtle">
          Optional headers: <code className="font-mono">x-wirescope-dialect</code> (auto, xml,
          delimiter, action, hermes; or <code className="font-mono">?dialect=</code>) and{" "}
          <code className="font-mono">x-wirescope-session</code> (calls with the same value join one
          transcript; otherwise a call that extends the previous conversation joins it). Your
          agent's own key is passed on; without one, the server's configured key is used. Keys are
          never stored.
        </p>
      </section>
    </div>
  );
}
