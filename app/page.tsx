const dialects = [
  {
    name: "xml",
    summary: "Tool calls written as XML-style tags inside the model's text.",
  },
  {
    name: "delimiter",
    summary: "Tool calls framed by plain-text delimiter markers.",
  },
  {
    name: "action",
    summary: "Structured action blocks with execution options: mode, timeout, retries.",
  },
] as const;

export default function HomePage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-border bg-surface">
        <div className="mx-auto flex h-11 max-w-3xl items-center gap-2 px-5">
          {/* biome-ignore lint/performance/noImgElement: static SVG mark, no optimisation needed */}
          <img src="/favicon.svg" alt="" width={18} height={18} />
          <span className="font-mono text-xs tracking-wide text-fg-muted">wirescope</span>
          <span className="ml-auto font-mono text-[11px] text-fg-subtle">v0.1.0</span>
        </div>
      </header>

      <main className="mx-auto w-full max-w-3xl flex-1 px-5 py-12">
        <h1 className="text-3xl font-semibold tracking-tight text-fg">Wirescope</h1>
        <p className="mt-2 text-base text-fg-muted">The agent playground that shows the wire.</p>

        <section aria-labelledby="dialects-heading" className="mt-10">
          <h2
            id="dialects-heading"
            className="font-mono text-[11px] uppercase tracking-widest text-fg-subtle"
          >
            Dialects
          </h2>
          <ul className="mt-3 divide-y divide-border overflow-hidden rounded-md border border-border bg-surface">
            {dialects.map((dialect) => (
              <li key={dialect.name} className="flex items-baseline gap-4 px-4 py-3">
                <code className="w-24 shrink-0 rounded bg-wire-bg px-2 py-0.5 font-mono text-[13px] text-wire-fg">
                  {dialect.name}
                </code>
                <span className="text-fg-muted">{dialect.summary}</span>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="border-t border-border">
        <div className="mx-auto max-w-3xl px-5 py-3 font-mono text-[11px] text-fg-subtle">
          raw model text · parsed events · tool runs
        </div>
      </footer>
    </div>
  );
}
