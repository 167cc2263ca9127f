/** What the transcript routes share: the store, id checks, errors as `{ error }` JSON. */
import { z } from "zod";
import { readConfig, type ServerConfig } from "@/lib/server/config";
import { getStore } from "@/lib/server/store-instance";
import type { Store } from "@/lib/store";

export const transcriptId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be a transcript id");

export interface RouteContext {
  params: Promise<{ id: string }>;
}

export function server(): { config: ServerConfig; store: Store } {
  const config = readConfig();
  return { config, store: getStore(config.dataDir) };
}

export function problem(status: number, error: string, extra: Record<string, unknown> = {}) {
  return Response.json({ error, ...extra }, { status });
}

/** The `:id` of the path, or a 400 naming it. */
export async function idOf(context: RouteContext): Promise<string | Response> {
  const { id } = await context.params;
  const parsed = transcriptId.safeParse(id);
  return parsed.success ? parsed.data : problem(400, "id: must be a transcript id.");
}

export const notFound = (id: string) => problem(404, `id: no transcript "${id}".`);

/** The first problem in words, naming the field: `title: must not be empty.` */
export function describeProblem(error: z.ZodError, root: "body" | "query" = "body"): string {
  const issue = error.issues[0];
  if (issue === undefined) return "Invalid request.";
  const field = issue.path.length > 0 ? issue.path.join(".") : root;
  if (issue.code === "unrecognized_keys") {
    const what = root === "query" ? "parameter" : "field";
    return `${field}: unknown ${what} ${issue.keys.map((key) => `"${key}"`).join(", ")}.`;
  }
  return `${field}: ${issue.message}.`;
}

/** A JSON body checked against `schema`, or a 400 response naming the bad field. */
export async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<T | Response> {
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return problem(400, "body: not valid JSON.");
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : problem(400, describeProblem(parsed.error));
}

/** Query parameters checked against `schema` (absent and empty parameters are left out). */
export function readQuery<T>(request: Request, schema: z.ZodType<T>): T | Response {
  const params = Object.fromEntries(
    [...new URL(request.url).searchParams.entries()].filter(([, value]) => value !== ""),
  );
  const parsed = schema.safeParse(params);
  return parsed.success ? parsed.data : problem(400, describeProblem(parsed.error, "query"));
}
