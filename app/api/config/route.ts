import { guardedRoute, otherMethods } from "@/app/api/http";
import { SHIPPED_PRICES_DATE } from "@/lib/cost";
import { liveExportConfig } from "@/lib/otel/live-config";
import { DIALECTS } from "@/lib/protocol";
import { DEMO_MODEL_LABEL, EXAMPLE_PROMPTS, SCENARIOS } from "@/lib/providers";
import { systemPrompt } from "@/lib/runtime/system-prompt";
import { readConfig } from "@/lib/server/config";
import { readEnvPrices } from "@/lib/server/prices";
import { settingProblems } from "@/lib/server/settings";
import { builtinTools, createRegistry } from "@/lib/tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** What the playground needs to draw its settings: tools, default system prompts, demo prompts, prices. */
async function get(): Promise<Response> {
  const config = readConfig();
  const tools = createRegistry(builtinTools({ shell: config.shell })).describe();
  const systemPrompts = Object.fromEntries(
    DIALECTS.map((dialect) => [dialect, systemPrompt(dialect, tools)]),
  );
  const otlp = liveExportConfig(process.env);
  const otlpError = otlp !== null && "error" in otlp ? otlp.error : null;
  return Response.json({
    dialects: DIALECTS,
    tools,
    systemPrompts,
    demo: {
      label: DEMO_MODEL_LABEL,
      examples: EXAMPLE_PROMPTS,
      scenarios: SCENARIOS.map((scenario) => `demo: ${scenario}`),
    },
    shell: config.shell,
    otlp: otlp !== null && otlpError === null,
    // The server's price overrides (`WIRESCOPE_PRICES`); the page adds the shipped table.
    prices: { ...readEnvPrices(process.env), shippedDate: SHIPPED_PRICES_DATE },
    // Settings this server cannot use, each naming its variable: `npm start` refuses to start
    // on any (scripts/start.mjs) rather than run on a default the user did not ask for. A bad
    // `WIRESCOPE_PRICES` is not one: the page shows its error, and a prices file can be fixed
    // while the server runs.
    problems: [...settingProblems(process.env), ...(otlpError === null ? [] : [otlpError])],
  });
}

export const GET = guardedRoute(get);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
