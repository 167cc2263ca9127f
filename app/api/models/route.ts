import { guardedRoute, otherMethods } from "@/app/api/http";
import { listModels } from "@/lib/providers";
import { readConfig } from "@/lib/server/config";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The providers and their models: configured ones with what they offer (an
 * OpenAI-compatible server's own list, asked with a short timeout), unconfigured ones with
 * what to set. Keys never appear here.
 */
async function get(): Promise<Response> {
  const providers = await listModels(readConfig().providerEnv);
  return Response.json({ providers }, { headers: { "cache-control": "no-store" } });
}

export const GET = guardedRoute(get);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
