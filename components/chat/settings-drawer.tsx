"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { PriceSettings } from "@/components/cost/price-settings";
import { BUTTON } from "@/components/playground/top-bar";
import { useDismiss } from "@/hooks/use-dismiss";
import { useServerConfig } from "@/hooks/use-server-config";
import { systemPrompt } from "@/lib/runtime/system-prompt";
import { usePlayground } from "@/state/playground-store";
import { ThemeChoice } from "./theme-choice";

/**
 * Opens the run settings: system prompt, tools, model parameters. Esc, a press outside or
 * Close shuts the drawer, and the focus goes back to this button.
 */
export function SettingsButton() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  useDismiss(open, root, close);
  return (
    <div ref={root} className="contents">
      <button
        ref={button}
        type="button"
        className={BUTTON}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        Settings
      </button>
      {open ? <SettingsDrawer onClose={close} /> : null}
    </div>
  );
}

function SettingsDrawer({ onClose }: { onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const config = useServerConfig();
  const state = usePlayground();
  // A custom dialect's default prompt is written from its definition, as the server does.
  const defaultPrompt =
    state.definition !== null
      ? systemPrompt(state.definition, config?.tools ?? [])
      : (config?.systemPrompts[state.dialect] ?? "");
  const allTools = config?.tools.map((tool) => tool.name) ?? [];
  const enabled = state.tools ?? allTools;
  const toggleTool = (name: string) => {
    const next = enabled.includes(name)
      ? enabled.filter((tool) => tool !== name)
      : [...enabled, name];
    state.setSettings({ tools: next.length === allTools.length ? null : next });
  };
  const number = (value: string) => (value.trim() === "" ? null : Number(value));

  return (
    <div
      role="dialog"
      aria-label="Run settings"
      className="fixed inset-y-0 left-0 z-20 flex w-[440px] max-w-full flex-col border-r border-border bg-surface shadow-2xl"
    >
      <div className="flex h-11 items-center border-b border-border px-3">
        <h2 ref={heading} tabIndex={-1} className="text-sm font-medium focus:outline-none">
          Run settings
        </h2>
        <button type="button" className={`${BUTTON} ml-auto`} onClick={onClose}>
          Close
        </button>
      </div>
      <div className="flex-1 space-y-5 overflow-y-auto p-3 text-sm">
        <section>
          <div className="mb-1 flex items-center">
            <label
              htmlFor="system-prompt"
              className="text-xs font-medium uppercase tracking-wider text-fg-subtle"
            >
              System prompt ({state.definition?.name ?? state.dialect})
            </label>
            <button
              type="button"
              className={`${BUTTON} ml-auto`}
              disabled={state.system === null}
              onClick={() => state.setSettings({ system: null })}
            >
              Reset to default
            </button>
          </div>
          <textarea
            id="system-prompt"
            value={state.system ?? defaultPrompt}
            onChange={(event) =>
              state.setSettings({
                system: event.target.value === defaultPrompt ? null : event.target.value,
              })
            }
            rows={16}
            spellCheck={false}
            className="w-full resize-y rounded border border-border bg-wire-bg p-2 font-mono text-xs text-fg"
          />
        </section>
        <section>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wider text-fg-subtle">
            Tools
          </h3>
          <ul className="space-y-1">
            {config?.tools.map((tool) => (
              <li key={tool.name}>
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    checked={enabled.includes(tool.name)}
                    onChange={() => toggleTool(tool.name)}
                    className="mt-1"
                  />
                  <span>
                    <code className="font-mono text-xs text-fg">{tool.name}</code>
                    <span className="block text-xs text-fg-muted">{tool.description}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          {config !== null && !config.shell ? (
            <p className="mt-2 text-xs text-fg-subtle">
              The shell tool is off; start the server with <code>WIRESCOPE_ENABLE_SHELL=1</code> to
              offer it.
            </p>
          ) : null}
        </section>
        <section className="grid grid-cols-3 gap-3">
          <NumberField
            label="Temperature"
            value={state.temperature}
            step={0.1}
            onChange={(value) => state.setSettings({ temperature: number(value) })}
          />
          <NumberField
            label="Max output tokens"
            value={state.maxOutputTokens}
            step={64}
            onChange={(value) => state.setSettings({ maxOutputTokens: number(value) })}
          />
          <NumberField
            label="Demo pace (ms)"
            value={state.paceMs}
            step={5}
            onChange={(value) => state.setSettings({ paceMs: number(value) ?? 0 })}
          />
        </section>
        <p className="text-xs text-fg-subtle">
          The demo model ignores temperature and token limits; real providers use them.
        </p>
        <PriceSettings />
        <ThemeChoice />
      </div>
    </div>
  );
}

function NumberField({
  label,
  value,
  step,
  onChange,
}: {
  label: string;
  value: number | null;
  step: number;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs text-fg-muted">
      {label}
      <input
        type="number"
        value={value ?? ""}
        step={step}
        min={0}
        onChange={(event) => onChange(event.target.value)}
        className="rounded border border-border bg-bg px-2 py-1 font-mono text-fg"
      />
    </label>
  );
}
