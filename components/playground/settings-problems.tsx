"use client";

import { useServerConfig } from "@/hooks/use-server-config";

/**
 * Settings the server cannot use (`GET /api/config`'s `problems`: a `WIRESCOPE_*` value out of
 * range, a bad OTLP setting). `npm start` refuses to start on any; a bare `next dev` or
 * `next start` runs on the defaults instead, and this says so until they are fixed.
 */
export function SettingsProblems() {
  const problems = useServerConfig()?.problems ?? [];
  if (problems.length === 0) return null;
  return (
    <div
      role="status"
      className="max-h-32 shrink-0 overflow-y-auto border-b border-danger/40 bg-danger/10 px-3 py-1.5 text-xs text-fg"
      data-testid="settings-problems"
    >
      <p className="font-medium text-danger">
        This server runs on defaults for {problems.length === 1 ? "a setting" : "settings"} it
        cannot use. Fix {problems.length === 1 ? "it" : "them"} and restart the server:
      </p>
      <ul className="mt-0.5 list-disc pl-5 font-mono break-words">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
