import { guardedRoute, otherMethods } from "@/app/api/http";
import { mergePrices, priceFor } from "@/lib/cost";
import { listModels } from "@/lib/providers";
import { readConfig } from "@/lib/server/config";
import { readEnvPrices } from "@/lib/server/prices";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The providers and their models: configured ones with what they offer (an
 * OpenAI-compatible server's own list, asked with a short timeout), unconfigured ones with
 * what to set. Keys never appear here. Each model says whether it has a price (`priced`: the
 * shipped table or `WIRESCOPE_PRICES`), so the picker can say "no price known" before a run
 * instead of a run's summary saying it after.
 */
async function get(): Promise<Response> {
  const prices = mergePrices(readEnvPrices(process.env).prices);
  const providers = (await listModels(readConfig().providerEnv)).map((provider) => ({
    ...provider,
    models: provider.models.map((model) => ({
      ...model,
      priced: priceFor(prices, provider.id, model.id) !== null,
    })),
  }));
  return Response.json({ providers }, { headers: { "cache-control": "no-store" } });
}

export const GET = guardedRoute(get);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
