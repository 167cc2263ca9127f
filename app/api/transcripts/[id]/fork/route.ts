import {
  guardedRoute,
  otherMethods,
  problem,
  type RouteContext,
  redacted,
  transcriptPost,
} from "@/app/api/http";
import { safeParseJson } from "@/lib/protocol/safe-json";
import { systemPrompt } from "@/lib/runtime/system-prompt";
import type { ServerConfig } from "@/lib/server/config";
import { resolveRunModel } from "@/lib/server/run-model";
import type { StoredRecord } from "@/lib/store";
import { builtinTools, createRegistry } from "@/lib/tools";
import { type ForkRequest, planFork } from "@/lib/transcripts/fork";
import { writeFork } from "@/lib/transcripts/store-actions";
import { forkSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Forks a transcript at a record (`at` = its seq), with at most one edit, into a new transcript
 * linked by `parentId`/`forkPoint`; the source is not touched. Answers 201 with the new
 * transcript's meta and `continueWith`: the `POST /api/runs` body that continues it (see
 * lib/transcripts/CONTEXT.md). `resume: false` without a `message` means the client must
 * send one.
 */
async function post(request: Request, context: RouteContext): Promise<Response> {
  const start = await transcriptPost(request, context, forkSchema);
  if (start instanceof Response) return start;
  const { id, source, store, config } = start;
  const body = withoutKeys(start.body, config);
  // A fork copies the records up to its point: only those are read (none for a bad `at`).
  const last = source.recordCount;
  const valid = Number.isSafeInteger(body.at) && body.at >= 0 && body.at <= last;
  const records: StoredRecord[] = [];
  for await (const page of source.pages({ through: valid ? body.at : 0 })) records.push(...page);
  const planned = planFork({ meta: source.meta, records }, body, last);
  if (!planned.ok) return problem(400, `${planned.field}: ${planned.message}`);
  const { plan } = planned;
  // A fork offers only a model a run would accept (its continuation would be refused otherwise).
  if (body.model !== undefined) {
    const model = await resolveRunModel(body.model, plan.dialect, { store, config });
    if (!model.ok) return problem(model.status, model.message);
  }
  const { tools } = source.meta;
  // The system prompt teaches a dialect: another dialect gets its own (for the same tools).
  const system =
    plan.dialect === source.meta.dialect
      ? source.meta.system
      : systemPrompt(
          plan.dialect,
          createRegistry(builtinTools({ shell: config.shell }))
            .describe()
            .filter((tool) => tools.includes(tool.name)),
        );
  const meta = await writeFork(store, id, plan, system, tools);
  const { resume, ...run } = plan.continueWith;
  return Response.json(
    { transcript: meta, continueWith: { transcriptId: meta.id, ...run }, resume },
    { status: 201 },
  );
}

/** A key typed into the edited message or result is not copied into the fork (nor sent on). */
function withoutKeys(body: ForkRequest, config: ServerConfig): ForkRequest {
  const { editUserMessage, editResult } = body;
  const content =
    editResult === undefined
      ? undefined
      : safeParseJson(redacted(JSON.stringify(editResult.content), config));
  return {
    ...body,
    ...(editUserMessage === undefined
      ? {}
      : { editUserMessage: redacted(editUserMessage, config) }),
    ...(editResult === undefined || content === undefined || !content.ok
      ? {}
      : { editResult: { ...editResult, content: content.value as typeof editResult.content } }),
  };
}

export const POST = guardedRoute(post);

export const { GET, PUT, PATCH, DELETE, OPTIONS, HEAD } = otherMethods("POST");
