"use client";

import { suggestPrompt } from "@/components/chat/composer";
import { useRouteOpening } from "@/components/transcripts/url-sync";
import { useServerConfig } from "@/hooks/use-server-config";
import { usePlayground } from "@/state/playground-store";

/**
 * Before the first message: what this is, and prompts to try (they fill the composer); while a
 * saved transcript is being read, that it is.
 */
export function EmptyState() {
  const config = useServerConfig();
  const routeOpening = useRouteOpening();
  const opening = usePlayground((state) => state.opening !== null) || routeOpening;
  if (opening)
    return (
      <p className="px-6 py-16 text-center text-sm text-fg-muted" role="status">
        Opening the transcript…
      </p>
    );
  const examples = config?.demo.examples.filter((prompt) => !prompt.startsWith("demo:")) ?? [];
  const scenarios = config?.demo.scenarios ?? [];
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-5 px-6 py-16" data-testid="timeline-empty">
      <div>
        <h1 className="text-base font-semibold text-fg">Chat with an agent and watch the wire</h1>
        <p className="mt-1 text-[13px] leading-relaxed text-fg-muted">
          Every message runs an agent loop. The model&apos;s raw text streams into the debug panel,
          the parsed events become the cards here, and hovering one shows where it came from in the
          wire.
        </p>
      </div>
      <PromptGroup title="Try" prompts={examples} />
      <PromptGroup title="Failure modes and features" prompts={scenarios} />
    </div>
  );
}

function PromptGroup({ title, prompts }: { title: string; prompts: string[] }) {
  if (prompts.length === 0) return null;
  return (
    <section>
      <h2 className="mb-2 text-[11px] font-medium uppercase tracking-wide text-fg-subtle">
        {title}
      </h2>
      <div className="flex flex-wrap gap-1.5">
        {prompts.map((prompt) => (
          <button
            key={prompt}
            type="button"
            onClick={() => suggestPrompt(prompt)}
            className="rounded-md border border-border bg-surface px-2.5 py-1 font-mono text-xs text-fg-muted hover:border-fg-subtle hover:text-fg"
          >
            {prompt}
          </button>
        ))}
      </div>
    </section>
  );
}
