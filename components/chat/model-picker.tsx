"use client";

import { useEffect, useRef, useState } from "react";
import { usePriceTable } from "@/components/cost/use-price-table";
import { useDismiss } from "@/hooks/use-dismiss";
import { type ProviderOption, useModels } from "@/hooks/use-models";
import { type PriceTable, priceFor } from "@/lib/cost";
import { usePlayground } from "@/state/playground-store";

/** Provider and model: the demo model by default; unconfigured providers say how to configure them. */
export function ModelPicker({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const providers = useModels();
  const prices = usePriceTable();
  useDismiss(open, root, () => setOpen(false));
  const dialog = useRef<HTMLDivElement>(null);
  const listed = providers !== null;
  // A dialog takes the focus when it opens (once its list has come): on the model in use, else
  // on its first control, so the arrow of a keyboard user starts where the choice is.
  useEffect(() => {
    const box = dialog.current;
    if (!open || !listed || box === null || box.contains(document.activeElement)) return;
    const target =
      box.querySelector<HTMLElement>('button[aria-current="true"]') ??
      box.querySelector<HTMLElement>("button, input");
    target?.focus();
  }, [open, listed]);
  const provider = usePlayground((state) => state.provider);
  const modelId = usePlayground((state) => state.modelId);
  const setSettings = usePlayground((state) => state.setSettings);
  const current = providers?.find((option) => option.id === provider);
  const label =
    provider === "demo"
      ? (current?.label ?? "Demo (scripted, offline)")
      : `${current?.label ?? provider} · ${modelId}`;
  const choose = (option: ProviderOption, id: string) => {
    setSettings({ provider: option.id, modelId: id });
    setOpen(false);
  };

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        disabled={disabled}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        title={
          provider === "demo"
            ? "A scripted model that runs offline: it follows simple documented rules."
            : undefined
        }
        className="flex max-w-[9rem] items-center rounded border border-border px-2 py-0.5 font-mono text-[11px] text-fg-muted hover:text-fg disabled:opacity-50 lg:max-w-[18rem]"
      >
        <span className="truncate">{label}</span>
        <span aria-hidden="true">&nbsp;▾</span>
      </button>
      {open ? (
        <div
          ref={dialog}
          role="dialog"
          aria-label="Choose a model"
          className="absolute left-0 top-8 z-30 max-h-[70vh] w-96 max-w-[calc(100vw-1.5rem)] overflow-y-auto rounded-md border border-border bg-surface p-2 shadow-2xl"
        >
          {(providers ?? []).map((option) => (
            <ProviderSection
              key={option.id}
              option={option}
              selected={option.id === provider ? modelId : null}
              prices={prices}
              onChoose={choose}
            />
          ))}
          {providers === null ? <p className="p-2 text-xs text-fg-subtle">Loading…</p> : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A provider as `GET /api/models` lists it: `error` says why a server's own model list is
 * missing (not reachable, refused the key, answered something else).
 */
type ListedProvider = ProviderOption & { error?: string };

function ProviderSection({
  option,
  selected,
  prices,
  onChoose,
}: {
  option: ListedProvider;
  selected: string | null;
  /** The page's prices (shipped, the server's, the user's): a model with none says so. */
  prices: PriceTable;
  onChoose: (option: ProviderOption, id: string) => void;
}) {
  const [custom, setCustom] = useState("");
  const usable = option.configured;
  return (
    <section className="border-b border-border py-2 last:border-b-0">
      <h3 className="flex items-center gap-2 px-1 text-xs font-medium text-fg">
        {option.label}
        {!usable ? (
          <span className="text-[11px] font-normal text-fg-subtle">
            — {option.configure ?? "not configured"}
          </span>
        ) : null}
      </h3>
      {usable && option.error !== undefined ? (
        // Without it, a server that is down or refuses the key just offered no models.
        <p className="mt-0.5 break-words px-1 text-[11px] text-warn">
          No model list: {option.error}
        </p>
      ) : null}
      {usable ? (
        <ul className="mt-1">
          {option.models.map((model) => (
            <li key={model.id}>
              <button
                type="button"
                onClick={() => onChoose(option, model.id)}
                aria-current={selected === model.id}
                className="flex w-full items-center rounded px-2 py-1 text-left font-mono text-xs text-fg-muted hover:bg-surface-2 hover:text-fg aria-[current=true]:bg-surface-2 aria-[current=true]:text-fg"
              >
                {model.id}
                <span className="ml-auto text-[10px] text-fg-subtle">
                  {priceFor(prices, option.id, model.id) === null ? "no price known · " : ""}
                  {model.source}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {usable && option.freeText ? (
        <form
          className="mt-1 flex gap-1 px-1"
          onSubmit={(event) => {
            event.preventDefault();
            if (custom.trim() !== "") onChoose(option, custom.trim());
          }}
        >
          <input
            value={custom}
            onChange={(event) => setCustom(event.target.value)}
            placeholder="another model id"
            aria-label={`Model id for ${option.label}`}
            className="flex-1 rounded border border-border bg-bg px-2 py-0.5 font-mono text-xs"
          />
          <button type="submit" className="rounded px-2 text-xs text-fg-muted hover:bg-surface-2">
            Use
          </button>
        </form>
      ) : null}
    </section>
  );
}
